import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { crc16CcittFalse } from '../../lib/crc16.js';
import { MAX_AMOUNT_CENTS } from '../../lib/money.js';
import {
  buildDynamicBrCode,
  MAX_LOCATION_LENGTH,
  normalizeMerchantText,
  parseBrCode,
  parseTlv,
  pixLocationUrl,
  qrCodePngBase64,
} from './index.js';

const BASE = 'pix.sandbox.svc.example/qr/v2';
const LOCATION = pixLocationUrl(BASE, 'cobv_01J9ZK3Q4W5E6R7T8Y9U0I1O2P');

const INPUT = {
  locationUrl: LOCATION,
  amountCents: 100_001,
  merchantName: 'José Ávila Comércio Ltda',
  merchantCity: 'São Paulo',
};

// Built by hand in Python (TLV concatenation + binascii.crc_hqx(data, 0xFFFF)),
// independently of this module, to pin the exact byte layout.
const EXPECTED_CODE =
  '00020101021226830014br.gov.bcb.pix2561pix.sandbox.svc.example/qr/v2/cobv_01J9ZK3Q4W5E6R7T8Y9U0I1O2P' +
  '52040000530398654071000.015802BR5924JOSE AVILA COMERCIO LTDA6009SAO PAULO62070503***63040904';

// jsqr is CommonJS; under NodeNext its default import is typed as the module
// object, whose `default` is the decoder (at runtime module.exports.default
// is module.exports itself, so this works with and without interop).
const jsQR = jsQRModule.default;

// Static example from the BCB "Manual de Padrões para Iniciação do Pix".
const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000' +
  '5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

/** Decodes a base64 PNG QR code back to its text, as a phone camera would. */
function decodeQr(pngBase64: string): string {
  const png = PNG.sync.read(Buffer.from(pngBase64, 'base64'));
  const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  assert.ok(qr, 'jsQR found no QR code in the PNG');
  return qr.data;
}

/** Amount 54 as read back from a built code. */
function amountOf(amountCents: number): string | undefined {
  return parseBrCode(buildDynamicBrCode({ ...INPUT, amountCents })).get('54');
}

describe('buildDynamicBrCode', () => {
  test('matches an independently computed code byte for byte', () => {
    assert.equal(buildDynamicBrCode(INPUT), EXPECTED_CODE);
  });

  test('parses back with every field, in EMV order', () => {
    const fields = parseBrCode(buildDynamicBrCode(INPUT));
    assert.deepEqual(
      [...fields.keys()],
      ['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63'],
    );
    assert.equal(fields.get('00'), '01');
    assert.equal(fields.get('01'), '12');
    const account = parseTlv(fields.get('26') ?? '');
    assert.deepEqual([...account.entries()], [
      ['00', 'br.gov.bcb.pix'],
      ['25', LOCATION],
    ]);
    assert.equal(fields.get('52'), '0000');
    assert.equal(fields.get('53'), '986');
    assert.equal(fields.get('54'), '1000.01');
    assert.equal(fields.get('58'), 'BR');
    assert.equal(fields.get('59'), 'JOSE AVILA COMERCIO LTDA');
    assert.equal(fields.get('60'), 'SAO PAULO');
    assert.deepEqual([...parseTlv(fields.get('62') ?? '').entries()], [['05', '***']]);
  });

  test('CRC covers the payload through "6304" and is uppercase hex', () => {
    const code = buildDynamicBrCode(INPUT);
    assert.equal(code.slice(-8, -4), '6304');
    assert.match(code.slice(-4), /^[0-9A-F]{4}$/);
    assert.equal(code.slice(-4), crc16CcittFalse(code.slice(0, -4)));
  });

  test('amount is a decimal with 2 places from centavos', () => {
    assert.equal(amountOf(100_001), '1000.01');
    assert.equal(amountOf(1), '0.01');
    assert.equal(amountOf(10), '0.10');
    assert.equal(amountOf(100), '1.00');
    assert.equal(amountOf(9_999_999_999), '99999999.99');
    assert.equal(MAX_AMOUNT_CENTS, 9_999_999_999);
  });

  test('rejects amounts that are not 1..MAX integer centavos', () => {
    for (const amountCents of [0, -1, 1.5, Number.NaN, MAX_AMOUNT_CENTS + 1]) {
      assert.throws(() => buildDynamicBrCode({ ...INPUT, amountCents }), /amount/, String(amountCents));
    }
  });

  test('accepts a location of exactly 77 characters and rejects 78', () => {
    const at = (n: number) => `pix.example.com/${'a'.repeat(n - 'pix.example.com/'.length)}`;
    const code = buildDynamicBrCode({ ...INPUT, locationUrl: at(MAX_LOCATION_LENGTH) });
    const account = parseTlv(parseBrCode(code).get('26') ?? '');
    assert.equal(account.get('25'), at(77));
    // 18 (GUI) + 4 + 77 = 99: the template is exactly at the TLV limit.
    assert.equal(parseBrCode(code).get('26')?.length, 99);
    assert.throws(() => buildDynamicBrCode({ ...INPUT, locationUrl: at(78) }), /1\.\.77/);
  });

  test('rejects a location with a scheme, empty, or with spaces', () => {
    for (const locationUrl of [`https://${LOCATION}`, `http://${LOCATION}`, `//${LOCATION}`]) {
      assert.throws(() => buildDynamicBrCode({ ...INPUT, locationUrl }), /scheme/);
    }
    assert.throws(() => buildDynamicBrCode({ ...INPUT, locationUrl: '' }));
    assert.throws(() => buildDynamicBrCode({ ...INPUT, locationUrl: 'pix.example.com/a b' }), /ASCII/);
    assert.throws(() => buildDynamicBrCode({ ...INPUT, locationUrl: 'pix.example.com/cobrança' }), /ASCII/);
    // A port is not a scheme.
    const withPort = buildDynamicBrCode({ ...INPUT, locationUrl: 'pix.example.com:8443/qr/v2/x' });
    assert.equal(parseTlv(parseBrCode(withPort).get('26') ?? '').get('25'), 'pix.example.com:8443/qr/v2/x');
  });

  test('normalizes merchant name and city', () => {
    const fields = (merchantName: string, merchantCity: string) =>
      parseBrCode(buildDynamicBrCode({ ...INPUT, merchantName, merchantCity }));

    const a = fields('José Ávila Comércio Ltda', 'Florianópolis');
    assert.equal(a.get('59'), 'JOSE AVILA COMERCIO LTDA');
    assert.equal(a.get('60'), 'FLORIANOPOLIS');

    const b = fields('  Ação   &  Cia.  ', 'São João del-Rei');
    assert.equal(b.get('59'), 'ACAO & CIA.');
    assert.equal(b.get('60'), 'SAO JOAO DEL-RE'); // cut to 15

    const c = fields('Padaria e Confeitaria Coração de Jesus Ltda', 'Brasília');
    assert.equal(c.get('59'), 'PADARIA E CONFEITARIA COR'); // cut to 25
    assert.equal(c.get('60'), 'BRASILIA');

    // Symbols become spaces; only emoji/symbols falls back to the default name.
    // "º" has no NFD decomposition, so it is dropped like any other symbol.
    assert.equal(fields('Loja <Teste>* Nº1', 'Curitiba').get('59'), 'LOJA TESTE N 1');
    assert.equal(fields('🙂🙂', 'Curitiba').get('59'), 'SVC PAGAMENTOS');
    assert.equal(fields('', 'Curitiba').get('59'), 'SVC PAGAMENTOS');
  });

  test('a cut that ends in a space is trimmed', () => {
    assert.equal(normalizeMerchantText('ABCDEFGHIJKLMNOPQRSTUVWX YZ', 25), 'ABCDEFGHIJKLMNOPQRSTUVWX');
  });

  test('rejects a city that is empty after normalization', () => {
    assert.throws(() => buildDynamicBrCode({ ...INPUT, merchantCity: ' *** ' }), /city/);
  });
});

describe('parseBrCode / parseTlv', () => {
  test('accepts the BCB manual example', () => {
    const fields = parseBrCode(BCB_EXAMPLE);
    assert.equal(fields.get('59'), 'Fulano de Tal');
    assert.equal(parseTlv(fields.get('26') ?? '').get('01'), '123e4567-e12b-12d1-a456-426655440000');
    assert.equal(fields.get('63'), '1D3D');
  });

  test('a one-character change in the payload is rejected by the CRC', () => {
    const code = buildDynamicBrCode(INPUT);
    const tampered = code.replace('1000.01', '1000.02');
    assert.notEqual(tampered, code);
    assert.throws(() => parseBrCode(tampered), /CRC mismatch/);
  });

  test('every single-character change anywhere is rejected', () => {
    const code = buildDynamicBrCode(INPUT);
    for (let i = 0; i < code.length; i++) {
      const replacement = code[i] === '0' ? '1' : '0';
      const tampered = code.slice(0, i) + replacement + code.slice(i + 1);
      assert.throws(() => parseBrCode(tampered), Error, `accepted a change at ${i}`);
    }
  });

  test('rejects a lowercase CRC', () => {
    assert.throws(() => parseBrCode(BCB_EXAMPLE.replace(/1D3D$/, '1d3D')), /CRC/);
  });

  test('rejects malformed input', () => {
    const code = buildDynamicBrCode(INPUT);
    assert.throws(() => parseBrCode(''), /Payload Format/);
    assert.throws(() => parseBrCode(code.slice(0, -1)), /length/i); // truncated CRC
    assert.throws(() => parseBrCode(`${code}0`), /TLV/); // trailing garbage
    assert.throws(() => parseBrCode(code.slice(0, -8)), /CRC field 63/); // no CRC
    assert.throws(() => parseBrCode(code.replace('000201', '000202')), /Payload Format/);
    assert.throws(() => parseTlv('0x02ab'), /Malformed/);
    assert.throws(() => parseTlv('0005abc'), /length/);
    assert.throws(() => parseTlv('0000'), /length/);
    assert.throws(() => parseTlv('0001a0001b'), /Repeated/);
  });

  test('pixLocationUrl joins base and id', () => {
    assert.equal(pixLocationUrl(BASE, 'abc'), 'pix.sandbox.svc.example/qr/v2/abc');
    assert.equal(pixLocationUrl(`${BASE}/`, 'abc'), 'pix.sandbox.svc.example/qr/v2/abc');
  });
});

describe('qrCodePngBase64', () => {
  test('PNG decodes to exactly the BR Code', async () => {
    const code = buildDynamicBrCode(INPUT);
    const png = qrCodePngBase64(code);
    assert.doesNotMatch(png, /^data:/);
    assert.equal(decodeQr(png), code);
  });

  test('largest code (max amount, 77-char location, 25-char name, 15-char city) round-trips', async () => {
    const code = buildDynamicBrCode({
      locationUrl: `pix.example.com/${'z'.repeat(MAX_LOCATION_LENGTH - 16)}`,
      amountCents: MAX_AMOUNT_CENTS,
      merchantName: 'Padaria e Confeitaria Coração de Jesus Ltda',
      merchantCity: 'São João del-Rei',
    });
    assert.equal(parseBrCode(code).get('54'), '99999999.99');
    assert.equal(decodeQr(qrCodePngBase64(code)), code);
  });
});
