/** Card numbers: brands and their lengths, Luhn, normalisation, and what the sandbox acquirer does with a number. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { card, fixLuhn, NOW } from '../../../test/helpers/cards.js';
import { CARD_BRANDS, CARD_NUMBER_LENGTHS, CVV_LENGTHS, TEST_CARDS, detectBrand, last4, luhnValid, normalizeCardNumber, validateCard, type CardBrand } from './card.js';
import { CARD_REFUSALS, sandboxAuthorizationOfLast4, sandboxOutcomeOfLast4 } from '../providers/index.js';

/** What the sandbox acquirer does with a card of this number (it sees the last 4 digits only). */
const sandboxCardOutcome = (number: string) => sandboxOutcomeOfLast4(last4(number));
const sandboxAuthorization = (number: string) => sandboxAuthorizationOfLast4(last4(number));

test('every test card is Luhn-valid, of its brand, of an allowed length, with the outcome it claims', () => {
  const brands = new Set<CardBrand>();
  for (const c of TEST_CARDS) {
    assert.ok(luhnValid(c.number), c.number);
    assert.equal(detectBrand(c.number), c.brand, c.number);
    assert.ok(CARD_NUMBER_LENGTHS[c.brand].includes(c.number.length), c.number);
    assert.equal(CVV_LENGTHS[c.brand], c.cvvLength);
    assert.equal(sandboxCardOutcome(c.number), c.outcome, c.number);
    const result = validateCard(card({ number: c.number, cvv: '1234'.slice(0, c.cvvLength) }), NOW);
    assert.ok(result.ok, `${c.number}: ${JSON.stringify(result)}`);
    brands.add(c.brand);
  }
  assert.deepEqual([...brands].sort(), [...CARD_BRANDS].sort(), 'a test card for every brand');
});

test('each brand is detected for its usual test number', () => {
  const expected: [string, CardBrand][] = [
    ['4111111111111111', 'visa'],
    ['4012888888881881', 'visa'],
    ['4222222222222', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2221000000900000', 'mastercard'],
    ['2720990000800000', 'mastercard'],
    ['378282246310005', 'amex'],
    ['371449635398431', 'amex'],
    ['30569309025904', 'diners'],
    ['36259600000004', 'diners'],
    ['38000000003000', 'diners'],
    ['6011111111111117', 'discover'],
    ['3530111333300000', 'jcb'],
    ['6362970000457013', 'elo'],
    ['6062825624254001', 'hipercard'],
    ['6370950000700000', 'hipercard'],
    ['5078601870800000127', 'aura'],
    ['5078000000300000', 'aura'],
  ];
  for (const [number, brand] of expected) assert.equal(detectBrand(number), brand, number);
});

test('Elo BINs inside the Visa, Aura/Maestro 50 and Discover 65 ranges are Elo', () => {
  for (const bin of ['401178', '401179', '431274', '438935', '451416', '457393', '457631', '457632']) {
    assert.equal(detectBrand(`${bin}0000000000`), 'elo', bin);
  }
  for (const bin of ['504175', '506699', '506750', '506778', '509000', '509999']) {
    assert.equal(detectBrand(`${bin}0000000000`), 'elo', bin);
  }
  for (const bin of ['650031', '650033', '650035', '650051', '650405', '650439', '650485', '650538', '650541', '650598', '650700', '650718', '650720', '650727', '650901', '650978', '651652', '651679', '655000', '655019', '655021', '655058']) {
    assert.equal(detectBrand(`${bin}0000000000`), 'elo', bin);
  }
  for (const bin of ['627780', '636297', '636368']) assert.equal(detectBrand(`${bin}0000000000`), 'elo', bin);
});

test('the gaps between Elo ranges stay with the other brand', () => {
  assert.equal(detectBrand('4011770000000000'), 'visa');
  assert.equal(detectBrand('4011800000000000'), 'visa');
  assert.equal(detectBrand('5066980000000000'), 'aura');
  assert.equal(detectBrand('5067790000000000'), 'aura');
  for (const bin of ['650034', '650719', '650979', '655020', '655059', '650000']) {
    assert.equal(detectBrand(`${bin}0000000000`), 'discover', bin);
  }
  // Mastercard (51–55, 2221–2720) has no Elo BIN inside it.
  assert.equal(detectBrand('5100000000000000'), 'mastercard');
  assert.equal(detectBrand('5500000000000000'), 'mastercard');
});

test('Hipercard 3841x0 is not Diners; other 38 BINs are', () => {
  for (const bin of ['384100', '384140', '384160']) assert.equal(detectBrand(`${bin}0000000000`), 'hipercard', bin);
  for (const bin of ['384150', '384110', '380000', '389999']) assert.equal(detectBrand(`${bin}00000000`), 'diners', bin);
  const hiper = fixLuhn('3841600000000000', 10);
  const result = validateCard(card({ number: hiper }), NOW);
  assert.ok(result.ok && result.card.brand === 'hipercard');
});

test('range edges of the other brands', () => {
  assert.equal(detectBrand('3000000000000000'), 'diners');
  assert.equal(detectBrand('3050000000000000'), 'diners');
  assert.equal(detectBrand('3060000000000000'), undefined);
  assert.equal(detectBrand('3527000000000000'), undefined);
  assert.equal(detectBrand('3528000000000000'), 'jcb');
  assert.equal(detectBrand('3589000000000000'), 'jcb');
  assert.equal(detectBrand('3590000000000000'), undefined);
  assert.equal(detectBrand('2220000000000000'), undefined);
  assert.equal(detectBrand('2721000000000000'), undefined);
  assert.equal(detectBrand('6221260000000000'), 'discover');
  assert.equal(detectBrand('6229250000000000'), 'discover');
  assert.equal(detectBrand('6221250000000000'), undefined);
  assert.equal(detectBrand('6440000000000000'), 'discover');
  assert.equal(detectBrand('6430000000000000'), undefined);
  assert.equal(detectBrand('6200000000000005'), undefined); // UnionPay
  assert.equal(detectBrand(''), undefined);
  assert.equal(detectBrand('4111abcd'), undefined);
});

test('Luhn', () => {
  assert.equal(luhnValid('4111111111111111'), true);
  assert.equal(luhnValid('4111 1111-1111 1111'), true);
  assert.equal(luhnValid('4111111111111112'), false);
  assert.equal(luhnValid('4111111111111121'), false); // two digits swapped
  assert.equal(luhnValid(''), false);
  assert.equal(luhnValid('41111111x1111111'), false);
  // Every single-digit change is caught.
  const base = '5555555555554444';
  for (let pos = 0; pos < base.length; pos++) {
    for (let d = 0; d <= 9; d++) {
      if (String(d) === base[pos]) continue;
      assert.equal(luhnValid(base.slice(0, pos) + d + base.slice(pos + 1)), false);
    }
  }
});

test('normalizeCardNumber and last4', () => {
  assert.equal(normalizeCardNumber(' 4111 1111-1111 1111 '), '4111111111111111');
  assert.equal(normalizeCardNumber('4111.1111'), undefined);
  assert.equal(last4('4111 1111 1111 1234'), '1234');
  assert.equal(last4('12'), '12');
  assert.equal(last4('abc'), '');
});

test('sandbox outcomes: …0002, …0069, …0119 and a normal card', () => {
  assert.equal(sandboxCardOutcome('4111113111110002'), 'insufficient_funds');
  assert.equal(sandboxCardOutcome('4111113111110069'), 'expired_card');
  assert.equal(sandboxCardOutcome('4111113111110119'), 'silent');
  assert.equal(sandboxCardOutcome('4111111111111111'), 'approved');
  assert.equal(sandboxCardOutcome('5555555555554444'), 'approved');
  // Other brands with the same endings behave the same.
  const mc0002 = fixLuhn('5555555555550002', 8);
  assert.ok(luhnValid(mc0002) && mc0002.endsWith('0002'));
  assert.equal(sandboxCardOutcome(mc0002), 'insufficient_funds');

  assert.deepEqual(sandboxAuthorization('4111111111111111'), { outcome: 'approved' });
  assert.deepEqual(sandboxAuthorization('4111113111110119'), { outcome: 'silent' });
  assert.deepEqual(sandboxAuthorization('4111113111110002'), {
    outcome: 'refused',
    refusalCode: 'insufficient_funds',
    refusalMessage: CARD_REFUSALS.insufficient_funds.refusalMessage,
  });
  assert.deepEqual(sandboxAuthorization('4111113111110069'), {
    outcome: 'refused',
    refusalCode: 'expired_card',
    refusalMessage: CARD_REFUSALS.expired_card.refusalMessage,
  });
  for (const refusal of Object.values(CARD_REFUSALS)) assert.ok(!/\d{4}/.test(refusal.refusalMessage));
});

test('the sandbox outcome cards pass validation (the acquirer refuses them, not the vault)', () => {
  for (const number of ['4111113111110002', '4111113111110069', '4111113111110119']) {
    assert.ok(validateCard(card({ number }), NOW).ok, number);
  }
});
