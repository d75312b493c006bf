/**
 * The pure half of the hosted fields (web/vault/hosted-fields/), run from the
 * served bundle as the browser would run it: a classic script in a fresh VM
 * context with Web Crypto and TextEncoder but no document (so the DOM wiring
 * stays off) and no Node globals.
 * The JWE it builds must open with jose, as the vault server opens it.
 */
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { describe, test } from 'node:test';
import { compactDecrypt, decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import { loadHostedFields } from '../helpers/hosted-fields-bundle.js';

const hf = loadHostedFields();
// Values built inside the VM come from another realm: compare them as JSON.
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

async function vaultKey(kid = 'vk_2026_01') {
  const { publicKey, privateKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RSA-OAEP-256', use: 'enc' };
  return { jwk, privateKey };
}

const card = { number: '4111111111111111', holderName: 'Maria da Silva', expMonth: 12, expYear: 2030, cvv: '123' };

describe('buildJwe', () => {
  test('builds a compact JWE that jose decrypts with the private key', async () => {
    const { jwk, privateKey } = await vaultKey();
    const jwe: string = await hf.buildJwe(jwk, JSON.stringify(card), 'vk_2026_01');

    const parts = jwe.split('.');
    assert.equal(parts.length, 5);
    for (const part of parts) assert.match(part, /^[A-Za-z0-9_-]+$/, 'base64url without padding');
    assert.equal(Buffer.from(parts[1]!, 'base64url').length, 256, 'RSA-2048 wrapped key');
    assert.equal(Buffer.from(parts[2]!, 'base64url').length, 12, '96-bit IV');
    assert.equal(Buffer.from(parts[4]!, 'base64url').length, 16, '128-bit tag');

    const { plaintext, protectedHeader } = await compactDecrypt(jwe, privateKey);
    assert.deepEqual(protectedHeader, { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'vk_2026_01' });
    assert.deepEqual(JSON.parse(new TextDecoder().decode(plaintext)), card);
  });

  test('kid defaults to the JWK kid and non-ASCII text survives', async () => {
    const { jwk, privateKey } = await vaultKey('vk_other');
    const text = JSON.stringify({ ...card, holderName: 'João Ñandú Çağrı' });
    const jwe: string = await hf.buildJwe(jwk, text);
    assert.equal(decodeProtectedHeader(jwe).kid, 'vk_other');
    const { plaintext } = await compactDecrypt(jwe, privateKey);
    assert.equal(new TextDecoder().decode(plaintext), text);
  });

  test('binds the JWE to a ticket: the ticket is in the protected header, which AES-GCM authenticates', async () => {
    const { jwk, privateKey } = await vaultKey();
    const jwe: string = await hf.buildJwe(jwk, JSON.stringify(card), 'vk_2026_01', 'tkt_a');
    const { protectedHeader } = await compactDecrypt(jwe, privateKey);
    assert.deepEqual(protectedHeader, { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'vk_2026_01', ticket: 'tkt_a' });
    const moved = jwe.split('.');
    moved[0] = Buffer.from(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'vk_2026_01', ticket: 'tkt_b' })).toString('base64url');
    await assert.rejects(compactDecrypt(moved.join('.'), privateKey), 'a header naming another ticket does not decrypt');
    await assert.rejects(hf.buildJwe(jwk, 'x', 'k', ''), 'an empty ticket is refused');
  });

  test('uses a fresh content key and IV every time', async () => {
    const { jwk } = await vaultKey();
    const a: string = await hf.buildJwe(jwk, 'same', 'k');
    const b: string = await hf.buildJwe(jwk, 'same', 'k');
    const [, ekA, ivA, ctA] = a.split('.');
    const [, ekB, ivB, ctB] = b.split('.');
    assert.notEqual(ekA, ekB);
    assert.notEqual(ivA, ivB);
    assert.notEqual(ctA, ctB);
  });

  test('the protected header is authenticated (AAD): a swapped kid fails to decrypt', async () => {
    const { jwk, privateKey } = await vaultKey();
    const jwe: string = await hf.buildJwe(jwk, JSON.stringify(card), 'vk_2026_01');
    const parts = jwe.split('.');
    parts[0] = Buffer.from(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'evil' })).toString('base64url');
    await assert.rejects(compactDecrypt(parts.join('.'), privateKey));
    const tampered = jwe.split('.');
    const ct = Buffer.from(tampered[3]!, 'base64url');
    ct[0] = ct[0]! ^ 1;
    tampered[3] = ct.toString('base64url');
    await assert.rejects(compactDecrypt(tampered.join('.'), privateKey));
  });

  test('refuses keys that are not RSA-OAEP-256 public keys of at least 2048 bits', async () => {
    const { jwk } = await vaultKey();
    await assert.rejects(hf.buildJwe({ ...jwk, alg: 'RSA1_5' }, 'x', 'k'));
    await assert.rejects(hf.buildJwe({ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' }, 'x', 'k'));
    // jose refuses to make a 1024-bit key; Web Crypto still can.
    const small = await webcrypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['encrypt', 'decrypt'],
    );
    await assert.rejects(hf.buildJwe(await webcrypto.subtle.exportKey('jwk', small.publicKey), 'x', 'k'), /too small/);
    await assert.rejects(hf.buildJwe({ ...jwk, kid: undefined }, 'x'), /kid/);
  });

  test('base64url matches Node for every tail length', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = webcrypto.getRandomValues(new Uint8Array(n));
      assert.equal(hf.b64url(bytes), Buffer.from(bytes).toString('base64url'));
    }
  });
});

describe('detectBrand', () => {
  const cases: Array<[string, string | null]> = [
    ['4111111111111111', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000000', 'mastercard'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['6011111111111117', 'discover'],
    ['6221260000000000', 'discover'],
    ['6229250000000000', 'discover'],
    ['36227206271667', 'diners'],
    ['3530111333300000', 'jcb'],
    ['6062825624254001', 'hipercard'],
    ['3841001111222233334', 'hipercard'],
    ['', null],
    ['9999', null],
  ];
  for (const [number, brand] of cases) {
    test(`${number || '(empty)'} is ${brand}`, () => assert.equal(hf.detectBrand(number), brand));
  }

  test('Elo BINs win over Visa, Mastercard and Discover', () => {
    const elo = [
      '401178', '401179', '431274', '438935', '451416', '457393', '457631', '457632', // else Visa
      '504175', '506699', '506740', '506778', '509000', '509999', // 50…: else Aura
      '627780', '636297', '636368',
      '650031', '650033', '650035', '650051', '650405', '650439', '650485', '650538', // else Discover (65)
      '650541', '650598', '650700', '650718', '650720', '650727', '650901', '650978',
      '651652', '651679', '655000', '655019', '655021', '655058',
    ];
    for (const bin of elo) assert.equal(hf.detectBrand(`${bin}0000000000`), 'elo', bin);
  });

  test('numbers just outside the Elo ranges keep their own brand', () => {
    assert.equal(hf.detectBrand('4011770000000000'), 'visa');
    assert.equal(hf.detectBrand('4011800000000000'), 'visa');
    assert.equal(hf.detectBrand('6500340000000000'), 'discover');
    assert.equal(hf.detectBrand('6550200000000000'), 'discover');
    assert.equal(hf.detectBrand('6507190000000000'), 'discover');
  });

  test('a partial number is read from its prefix, and spaces are ignored', () => {
    assert.equal(hf.detectBrand('4'), 'visa');
    assert.equal(hf.detectBrand('51'), 'mastercard');
    assert.equal(hf.detectBrand('37'), 'amex');
    assert.equal(hf.detectBrand('4011 78'), 'elo');
    assert.equal(hf.detectBrand('6062 82'), 'hipercard');
  });

  test('Amex asks for a 4-digit CVV, the others for 3', () => {
    assert.equal(hf.brandInfo('amex').cvv, 4);
    for (const b of ['visa', 'mastercard', 'elo', 'hipercard']) assert.equal(hf.brandInfo(b).cvv, 3);
    assert.equal(hf.validateCvv('123', 'amex').valid, false);
    assert.equal(hf.validateCvv('1234', 'amex').valid, true);
    assert.equal(hf.validateCvv('123', 'elo').valid, true);
    assert.equal(hf.validateCvv('1234', 'visa').valid, false);
  });
});

describe('luhnValid', () => {
  test('accepts valid numbers and rejects a changed digit', () => {
    for (const n of ['4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', '79927398713']) {
      assert.equal(hf.luhnValid(n), true, n);
    }
    for (const n of ['4111111111111112', '79927398710', '', 'abcd', '4111 1111 1111 1111']) {
      assert.equal(hf.luhnValid(n), false, n);
    }
  });
});

describe('formatting and field states', () => {
  test('groups numbers as printed: 4-4-4-4(-3), Amex 4-6-5, Diners 4-6-4', () => {
    assert.equal(hf.formatNumber('4111111111111111'), '4111 1111 1111 1111');
    assert.equal(hf.formatNumber('4111 1111-1111'), '4111 1111 1111');
    assert.equal(hf.formatNumber('4111111111111111111'), '4111 1111 1111 1111 111');
    assert.equal(hf.formatNumber('41111111111111111111111'), '4111 1111 1111 1111 111', 'cut at 19 digits');
    assert.equal(hf.formatNumber('378282246310005'), '3782 822463 10005');
    assert.equal(hf.formatNumber('3782822463100059'), '3782 822463 10005', 'Amex stops at 15');
    assert.equal(hf.formatNumber('36227206271667'), '3622 720627 1667');
    assert.equal(hf.formatNumber('5067'), '5067');
    assert.equal(hf.formatNumber(''), '');
  });

  test('formats the expiry as MM/AA', () => {
    assert.equal(hf.formatExpiry('1'), '1');
    assert.equal(hf.formatExpiry('4'), '04');
    assert.equal(hf.formatExpiry('12'), '12');
    assert.equal(hf.formatExpiry('123'), '12/3');
    assert.equal(hf.formatExpiry('1230'), '12/30');
    assert.equal(hf.formatExpiry('12/2030'), '12/30', 'MM/YYYY from autofill');
    assert.equal(hf.formatExpiry('1/30'), '01/30');
    assert.equal(hf.formatExpiry('12/305'), '12/30');
  });

  test('the expiry may be this month but not earlier', () => {
    const now = new Date(2026, 4, 15); // May 2026
    assert.deepEqual(plain(hf.parseExpiry('05/26', now)), { empty: false, complete: true, valid: true, error: null, month: 5, year: 2026 });
    assert.equal(hf.parseExpiry('04/26', now).error, 'expired');
    assert.equal(hf.parseExpiry('12/25', now).error, 'expired');
    assert.equal(hf.parseExpiry('13/27', now).error, 'invalid');
    assert.equal(hf.parseExpiry('00/27', now).error, 'invalid');
    assert.equal(hf.parseExpiry('01/60', now).error, 'invalid', 'more than 20 years ahead');
    assert.equal(hf.parseExpiry('1', now).error, 'incomplete');
    assert.equal(hf.parseExpiry('', now).error, 'required');
  });

  test('number state: complete, valid, brand; never echoes the digits', () => {
    const partial = plain(hf.validateNumber('4111 1111'));
    assert.deepEqual(partial, { empty: false, complete: false, valid: false, brand: 'visa', error: 'incomplete' });
    assert.deepEqual(plain(hf.validateNumber('4111 1111 1111 1111')), { empty: false, complete: true, valid: true, brand: 'visa', error: null });
    // A 16-digit Visa failing Luhn may still grow to 19: not complete yet.
    assert.equal(hf.validateNumber('4111111111111112').complete, false);
    assert.equal(hf.validateNumber('4111111111111112').error, 'invalid', 'shown on blur');
    assert.equal(hf.validateNumber('41111111111111').error, 'incomplete');
    assert.equal(hf.validateNumber('4111111111111111112').error, 'invalid');
    assert.equal(hf.validateNumber('5555555555554440').error, 'invalid', 'Mastercard is complete at 16');
    assert.equal(hf.validateNumber('').error, 'required');
    assert.equal(hf.validateNumber('6504050000000007').brand, 'elo');
  });

  test('holder name: letters with accents, no digits', () => {
    assert.equal(hf.validateHolder('José Ávila-D\'Ângelo Jr.').valid, true);
    assert.equal(hf.validateHolder('  A ').valid, false);
    assert.equal(hf.validateHolder('4111111111111111').valid, false);
    assert.equal(hf.validateHolder('Maria 2').valid, false);
    assert.equal(hf.validateHolder('').error, 'required');
  });
});

describe('fragment and style', () => {
  test('parses the fragment the SDK builds and refuses an unusable origin', () => {
    const ok = hf.parseFragment('#ticket=tkt_1%2B2&keyId=vk_1&origin=https%3A%2F%2Fshop.example&locale=en&hide=1'
      + '&submitLabel=' + encodeURIComponent(' Pay <b>now</b> $& ')
      + '&style=' + encodeURIComponent(JSON.stringify({ theme: 'dark' }))
      + '&placeholders=' + encodeURIComponent(JSON.stringify({ number: 'Card' })));
    assert.deepEqual(plain(ok), {
      ok: true, ticket: 'tkt_1+2', keyId: 'vk_1', origin: 'https://shop.example', locale: 'en', hide: true,
      submitLabel: 'Pay <b>now</b> $&', style: { theme: 'dark' }, placeholders: { number: 'Card' },
    });
    // The page writes the frame's URL: a label the SDK would refuse falls back to the frame's own (null).
    const base = '#ticket=t&keyId=k&origin=https%3A%2F%2Fa.example';
    assert.equal(hf.parseFragment(base).submitLabel, null);
    for (const label of ['', '%20%20', 'x'.repeat(41), 'Pay%0Anow', 'Pay%E2%80%AEnow', 'Pay%00']) {
      assert.equal(hf.parseFragment(`${base}&submitLabel=${label}`).submitLabel, null, label);
    }
    assert.equal(hf.parseFragment(`${base}&submitLabel=${'x'.repeat(40)}`).submitLabel, 'x'.repeat(40));
    for (const origin of ['*', 'null', 'https://shop.example/', 'https://shop.example/path', 'javascript:alert(1)', '']) {
      const p = hf.parseFragment(`#ticket=t&keyId=k&origin=${encodeURIComponent(origin)}`);
      assert.equal(p.ok, false, origin);
      assert.equal(p.origin, null, origin);
    }
    assert.equal(hf.parseFragment('#ticket=t&keyId=k&origin=http%3A%2F%2Flocalhost%3A5173').ok, true);
    assert.equal(hf.parseFragment('#keyId=k&origin=https%3A%2F%2Fa.example').ok, false, 'no ticket');
    assert.equal(hf.parseFragment('#ticket=t&keyId=k&origin=https%3A%2F%2Fa.example&locale=fr').locale, 'pt-BR');
    assert.equal(hf.parseFragment('#ticket=t&keyId=k&origin=https%3A%2F%2Fa.example&style=%7Bbad').style.theme, undefined);
  });

  test('style keeps installed-font names and plain values, drops anything that could load or inject', () => {
    assert.deepEqual(plain(hf.sanitizeStyle({
      fontFamily: '"Helvetica Neue", Arial, sans-serif', fontSize: '15px', color: '#333', errorColor: 'rgb(200, 0, 0)',
    })), {
      '--svc-font': '"Helvetica Neue", Arial, sans-serif', '--svc-font-size': '15px', '--svc-color': '#333', '--svc-error': 'rgb(200, 0, 0)',
    });
    assert.deepEqual(plain(hf.sanitizeStyle({
      fontFamily: 'x; background:url(https://evil.example/a.png)',
      fontSize: 'calc(1px + 1px)',
      color: 'red; }',
      backgroundColor: 'url(https://evil.example/)',
    })), {});
  });

  test('redact leaves no run of digits that could be a card number', () => {
    assert.equal(hf.redact('card 4111 1111 1111 1111 refused'), 'card … refused');
    assert.equal(hf.redact('cvv 123 ok, 2030'), 'cvv 123 ok, 2030');
  });
});
