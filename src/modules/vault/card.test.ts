/** validateCard: each field's rules, every problem reported, and nothing of the card in them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { card, fixLuhn, NOW } from '../../../test/helpers/cards.js';
import { validateCard, type CardProblem } from './card.js';

/** The problems with their English text, as the assertions below spell them. */
function problemsOf(input: unknown, now = NOW): { field: string; message: string }[] {
  const result = validateCard(input, now);
  assert.equal(result.ok, false, 'expected a validation failure');
  return result.ok ? [] : result.problems.map((p: CardProblem) => ({ field: p.field, message: p.message.en }));
}

function fields(input: unknown, now = NOW): string[] {
  return problemsOf(input, now).map((p) => p.field);
}

test('a valid card is normalised and returned with brand and last4', () => {
  const result = validateCard(card({ number: '4111 1111-1111 1111', holderName: '  José  D’Ávila-Núñez ', expYear: 30 }), NOW);
  assert.ok(result.ok);
  assert.deepEqual(result.card, {
    number: '4111111111111111',
    holderName: "José D'Ávila-Núñez",
    expMonth: 12,
    expYear: 2030,
    cvv: '123',
    brand: 'visa',
    last4: '1111',
  });
});

test('number: Luhn failure, bad characters, too short, too long', () => {
  assert.deepEqual(problemsOf(card({ number: '4111111111111112' })), [{ field: 'number', message: 'is not a valid card number' }]);
  assert.deepEqual(fields(card({ number: '4111-1111-1111-111x' })), ['number']);
  assert.deepEqual(fields(card({ number: '41111111111' })), ['number']);
  assert.deepEqual(fields(card({ number: '41111111111111111111' })), ['number']);
  assert.deepEqual(fields(card({ number: 4111111111111111 })), ['number']);
  assert.deepEqual(fields(card({ number: '' })), ['number']);
  assert.deepEqual(fields(card({ number: undefined })), ['number']);
});

test('number: unknown brand', () => {
  const problems = problemsOf(card({ number: '6200000000000005' }));
  assert.deepEqual(problems, [{ field: 'number', message: 'is from a card brand that is not accepted' }]);
  assert.deepEqual(fields(card({ number: fixLuhn('9000000000000000', 10) })), ['number']);
});

test('number: a length the brand does not issue', () => {
  const mc15 = fixLuhn('555555555555444', 10);
  assert.deepEqual(problemsOf(card({ number: mc15 })), [{ field: 'number', message: 'must have 16 digits for Mastercard' }]);
  const visa14 = fixLuhn('41111111111111', 10);
  assert.deepEqual(problemsOf(card({ number: visa14 })), [{ field: 'number', message: 'must have 13, 16 or 19 digits for Visa' }]);
  const amex16 = fixLuhn('3782822463100050', 10);
  assert.deepEqual(fields(card({ number: amex16, cvv: '1234' })), ['number']);
  const elo19 = fixLuhn('6362970000457013000', 10);
  assert.deepEqual(fields(card({ number: elo19 })), ['number']);
  const aura13 = fixLuhn('5078000000000', 10);
  assert.deepEqual(fields(card({ number: aura13 })), ['number']);
});

test('expiry: the current month is valid to its last day (São Paulo calendar), the previous month is expired', () => {
  assert.ok(validateCard(card({ expMonth: 6, expYear: 2025 }), NOW).ok);
  // Last minutes of June in São Paulo are already July in UTC: still valid.
  assert.ok(validateCard(card({ expMonth: 6, expYear: 2025 }), new Date('2025-07-01T02:59:00Z')).ok);
  assert.deepEqual(problemsOf(card({ expMonth: 6, expYear: 2025 }), new Date('2025-07-01T03:00:00Z')), [
    { field: 'expMonth', message: 'card has expired' },
  ]);
  assert.deepEqual(problemsOf(card({ expMonth: 5, expYear: 2025 })), [{ field: 'expMonth', message: 'card has expired' }]);
  assert.deepEqual(problemsOf(card({ expMonth: 12, expYear: 2024 })), [{ field: 'expYear', message: 'card has expired' }]);
  assert.ok(validateCard(card({ expMonth: 1, expYear: 2026 }), NOW).ok);
});

test('expiry: at most 20 years ahead', () => {
  assert.ok(validateCard(card({ expMonth: 12, expYear: 2045 }), NOW).ok);
  assert.deepEqual(problemsOf(card({ expMonth: 1, expYear: 2046 })), [{ field: 'expYear', message: 'must be at most 20 years ahead' }]);
});

test('expMonth and expYear formats', () => {
  for (const m of [0, 13, 1.5, -1, '13', 'ab', '123', true, [6]]) {
    assert.deepEqual(fields(card({ expMonth: m })), ['expMonth'], String(m));
  }
  assert.ok(validateCard(card({ expMonth: '09' }), NOW).ok);
  assert.ok(validateCard(card({ expYear: '2030' }), NOW).ok);
  const two = validateCard(card({ expYear: '30' }), NOW);
  assert.ok(two.ok && two.card.expYear === 2030);
  for (const y of [203, '203', 20300, 2030.5, 'next', null, '3']) {
    assert.deepEqual(fields(card({ expYear: y })), ['expYear'], String(y));
  }
});

test('cvv: 4 digits for Amex, 3 for the others', () => {
  const amex = '378282246310005';
  assert.ok(validateCard(card({ number: amex, cvv: '1234' }), NOW).ok);
  assert.deepEqual(problemsOf(card({ number: amex, cvv: '123' })), [{ field: 'cvv', message: 'must have 4 digits for American Express' }]);
  assert.deepEqual(problemsOf(card({ cvv: '1234' })), [{ field: 'cvv', message: 'must have 3 digits for Visa' }]);
  assert.deepEqual(fields(card({ cvv: '12' })), ['cvv']);
  assert.deepEqual(fields(card({ cvv: '12a' })), ['cvv']);
  assert.deepEqual(fields(card({ cvv: 123 })), ['cvv']);
  assert.deepEqual(fields(card({ cvv: undefined })), ['cvv']);
  // Leading zeros survive (a string, never a number).
  const zero = validateCard(card({ cvv: '007' }), NOW);
  assert.ok(zero.ok && zero.card.cvv === '007');
  // With a bad number the CVV is still checked on its own.
  assert.deepEqual(fields(card({ number: '4111111111111112', cvv: '12345' })), ['number', 'cvv']);
  assert.deepEqual(fields(card({ number: '4111111111111112', cvv: '1234' })), ['number']);
});

test('holder name', () => {
  for (const name of ['Ana Luíza Müller', "JOAO D'AVILA", 'Ç. Ñandú-Pérez', 'Lê Văn Thành', 'Al']) {
    assert.ok(validateCard(card({ holderName: name }), NOW).ok, name);
  }
  for (const name of ['A', ' A ', 'Maria 2', 'Maria@Silva', 'A'.repeat(27), '---', '', 42, 'Maria\u0000Silva']) {
    assert.deepEqual(fields(card({ holderName: name })), ['holderName'], String(name));
  }
  assert.ok(validateCard(card({ holderName: 'A'.repeat(26) }), NOW).ok);
  // Decomposed accents count once after NFC.
  const decomposed = 'Jose\u0301' + 'a'.repeat(22); // 27 code points, 26 characters after NFC
  assert.equal([...decomposed].length, 27);
  assert.ok(validateCard(card({ holderName: decomposed }), NOW).ok);
});

test('non-object input is refused on encryptedCard', () => {
  for (const input of [null, undefined, 'card', 42, [], [card()], true]) {
    assert.deepEqual(fields(input), ['encryptedCard'], JSON.stringify(input) ?? 'undefined');
  }
});

test('several problems are all reported, in field order', () => {
  assert.deepEqual(fields({ number: '1', holderName: '', expMonth: 13, expYear: 'x', cvv: 'x' }), ['number', 'holderName', 'expMonth', 'expYear', 'cvv']);
  assert.deepEqual(fields({}), ['number', 'holderName', 'expMonth', 'expYear', 'cvv']);
});

test('extra fields are ignored, or reported with rejectUnknownFields', () => {
  const input = { ...card(), brand: 'visa', '4111111111111111': 'x' };
  const lenient = validateCard(input, NOW);
  assert.ok(lenient.ok);
  assert.deepEqual(Object.keys(lenient.card).sort(), ['brand', 'cvv', 'expMonth', 'expYear', 'holderName', 'last4', 'number']);
  const strict = validateCard(input, NOW, { rejectUnknownFields: true });
  assert.equal(strict.ok, false);
  assert.deepEqual(strict.ok ? [] : strict.problems.map((p) => p.field), ['brand', 'encryptedCard']);
  assert.ok(!JSON.stringify(strict).includes('4111111111111111'));
});

test('problems never contain the card number, its digits or the CVV', () => {
  const secretsCvv = '987';
  const numbers = [
    '4111111111111112', // Luhn failure
    '6200000000000005', // unknown brand
    fixLuhn('555555555555444', 10), // wrong length
    '4111-1111-1111-111x', // bad characters
    '41111111111', // too short
    '4111111111111111', // valid number, other fields bad
  ];
  for (const number of numbers) {
    for (const cvv of [secretsCvv, '98', '9876', '98x']) {
      const result = validateCard({ number, holderName: 'X', expMonth: 13, expYear: 2020, cvv, extra: number }, NOW, { rejectUnknownFields: true });
      assert.equal(result.ok, false);
      const text = JSON.stringify(result);
      const digits = number.replace(/\D/g, '');
      assert.ok(!text.includes(digits), `number leaked: ${text}`);
      assert.ok(!text.includes(digits.slice(0, 6)), `BIN leaked: ${text}`);
      assert.ok(!text.includes(digits.slice(-4)), `last 4 leaked: ${text}`);
      assert.ok(!text.includes(cvv), `cvv leaked: ${text}`);
    }
  }
});
