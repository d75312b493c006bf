import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  distinctRecipientDocuments,
  percentageToBasisPoints,
  slicesOf,
  unapprovedRecipientProblems,
  validateSplitRules,
  type SplitRuleInput,
} from './index.js';
import type { ErrorDetail } from '../../lib/domain-error.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';

// Valid tax ids (check digits computed by hand with the mod-11 rule).
const SELLER = '11222333000181'; // CNPJ
const A = '52998224725'; // CPF
const B = '12345678909'; // CPF
const C = '98765432100'; // CPF
const D = '45678901000175'; // CNPJ

const pct = (recipientDocument: string, percentage?: number): SplitRuleInput => ({ recipientDocument, type: 'PERCENTAGE', percentage });
const fixed = (recipientDocument: string, amountCents?: number): SplitRuleInput => ({ recipientDocument, type: 'FIXED', amountCents });

function refused(rules: SplitRuleInput[], amountCents = 10_000) {
  const result = validateSplitRules(rules, amountCents, SELLER);
  assert.equal(result.ok, false, 'expected the rules to be refused');
  if (result.ok) throw new Error('unreachable');
  return result;
}

/** The problems with their English text, as the assertions below spell them. */
const inEnglish = (problems: ErrorDetail[]) => problems.map((p) => ({ field: p.field, message: p.message.en }));

function fieldsOf(rules: SplitRuleInput[], amountCents = 10_000): string[] {
  const result = refused(rules, amountCents);
  assert.equal(result.kind, 'SPLIT_INVALID');
  return result.problems.map((p) => p.field);
}

test('percentages become exact basis points', () => {
  assert.equal(percentageToBasisPoints(10.5), 1050);
  assert.equal(percentageToBasisPoints(33.33), 3333);
  assert.equal(percentageToBasisPoints(0.01), 1);
  assert.equal(percentageToBasisPoints(100), 10_000);
  assert.equal(percentageToBasisPoints(0.07), 7); // 0.07 * 100 is 7.000000000000001 in floats
  assert.equal(percentageToBasisPoints(0), 0);
  assert.equal(percentageToBasisPoints(-10.5), -1050);
});

test('percentages with more than 2 decimals, or not finite, have no basis points', () => {
  for (const p of [10.555, 0.001, 1e-7, 1.5e-7, 0.1 + 0.2, 33.333, NaN, Infinity, -Infinity, 1e21]) {
    assert.equal(percentageToBasisPoints(p), undefined, String(p));
  }
});

test('accepts mixed percentage and fixed rules and returns the slices, seller first', () => {
  const result = validateSplitRules([pct(A, 10.5), fixed(B, 1234), pct(D, 0.01)], 100_000, SELLER);
  assert.deepEqual(result, {
    ok: true,
    slices: [
      { recipientDocument: SELLER, role: 'SELLER', grossAmountCents: 100_000 - 10_500 - 1234 - 10 },
      { recipientDocument: A, role: 'CUSTOM_SPLIT_RECIPIENT', grossAmountCents: 10_500 },
      { recipientDocument: B, role: 'CUSTOM_SPLIT_RECIPIENT', grossAmountCents: 1234 },
      { recipientDocument: D, role: 'CUSTOM_SPLIT_RECIPIENT', grossAmountCents: 10 },
    ],
  });
});

test('no rules: the seller keeps the whole sale', () => {
  assert.deepEqual(validateSplitRules([], 500, SELLER), {
    ok: true,
    slices: [{ recipientDocument: SELLER, role: 'SELLER', grossAmountCents: 500 }],
  });
});

test('rules taking the whole sale leave a seller slice of 0', () => {
  const result = validateSplitRules([pct(A, 60), pct(B, 40)], 999, SELLER);
  assert.ok(result.ok);
  // floor(999 × 0.6) = 599, floor(999 × 0.4) = 399: the floor leaves 1 centavo to the seller.
  assert.deepEqual(result.slices.map((s) => s.grossAmountCents), [1, 599, 399]);
  const whole = validateSplitRules([pct(A, 60), fixed(B, 400)], 1000, SELLER);
  assert.ok(whole.ok);
  assert.deepEqual(whole.slices.map((s) => s.grossAmountCents), [0, 600, 400]);
});

test('rejects a percentage rule without a percentage', () => {
  assert.deepEqual(fieldsOf([fixed(A, 100), pct(B)]), ['splitRules[1].percentage']);
});

test('rejects a fixed rule without an amount', () => {
  assert.deepEqual(fieldsOf([pct(A, 10), fixed(B)]), ['splitRules[1].amountCents']);
});

test('rejects a percentage of 0 or less, or above 100', () => {
  assert.deepEqual(fieldsOf([pct(A, 0)]), ['splitRules[0].percentage']);
  assert.deepEqual(fieldsOf([pct(A, -5)]), ['splitRules[0].percentage']);
  assert.deepEqual(fieldsOf([pct(A, 100.01)]), ['splitRules[0].percentage']);
});

test('rejects a percentage with more than 2 decimals (10.555)', () => {
  const result = refused([pct(A, 10.555)]);
  assert.deepEqual(inEnglish(result.problems), [{ field: 'splitRules[0].percentage', message: 'at most 2 decimal places' }]);
});

test('rejects a fixed amount of 0 or less', () => {
  assert.deepEqual(fieldsOf([fixed(A, 0)]), ['splitRules[0].amountCents']);
  assert.deepEqual(fieldsOf([fixed(A, -1)]), ['splitRules[0].amountCents']);
});

test('rejects a rule carrying the value of the other type', () => {
  assert.deepEqual(fieldsOf([{ recipientDocument: A, type: 'PERCENTAGE', percentage: 10, amountCents: 100 }]), [
    'splitRules[0].amountCents',
  ]);
  assert.deepEqual(fieldsOf([{ recipientDocument: A, type: 'FIXED', percentage: 10, amountCents: 100 }]), [
    'splitRules[0].percentage',
  ]);
});

test('rejects a duplicate recipient, naming the repeated rule', () => {
  assert.deepEqual(fieldsOf([pct(A, 10), fixed(B, 10), fixed(A, 10)]), ['splitRules[2].recipientDocument']);
});

test("rejects the seller's own document as a recipient", () => {
  assert.deepEqual(fieldsOf([pct(A, 10), fixed(SELLER, 10)]), ['splitRules[1].recipientDocument']);
});

test('rejects percentages summing above 100, at the rule that goes over', () => {
  const result = refused([pct(A, 60), pct(B, 30), fixed(C, 1), pct(D, 10.01)], 100_000);
  assert.deepEqual(inEnglish(result.problems), [
    { field: 'splitRules[3].percentage', message: 'sum of percentages exceeds 100' },
    { field: 'splitRules[3].percentage', message: 'sum of slices exceeds the sale amount' },
  ]);
});

test('percentages above 100 in total are refused even when their floors fit the amount', () => {
  // 60 % + 60 % of 1 centavo: both slices floor to 0, still 120 %.
  const result = refused([pct(A, 60), pct(B, 60)], 1);
  assert.deepEqual(inEnglish(result.problems), [{ field: 'splitRules[1].percentage', message: 'sum of percentages exceeds 100' }]);
});

test('rejects slices summing above the sale amount, at the rule that goes over', () => {
  // 600 + 300 (30 % of 1000) = 900, + 200 = 1100 > 1000 at rule 2.
  const result = refused([fixed(A, 600), pct(B, 30), fixed(C, 200)], 1000);
  assert.deepEqual(inEnglish(result.problems), [{ field: 'splitRules[2].amountCents', message: 'sum of slices exceeds the sale amount' }]);
  assert.ok(validateSplitRules([fixed(A, 600), pct(B, 30), fixed(C, 100)], 1000, SELLER).ok, 'exactly the amount fits');
});

test('reports every problem, not just the first', () => {
  assert.deepEqual(fieldsOf([pct(A), fixed(B, 0), pct(C, 10.555), fixed(A, 5), pct(SELLER, 200)]), [
    'splitRules[0].percentage',
    'splitRules[1].amountCents',
    'splitRules[2].percentage',
    'splitRules[3].recipientDocument',
    'splitRules[4].recipientDocument',
    'splitRules[4].percentage',
  ]);
});

test('a tax id with wrong check digits is a VALIDATION_ERROR, which wins over split problems', () => {
  const result = refused([pct(A, 200), fixed('52998224726', 10), fixed('123', 10)]);
  assert.equal(result.kind, 'VALIDATION_ERROR');
  assert.deepEqual(inEnglish(result.problems), [
    { field: 'splitRules[1].recipientDocument', message: 'is not a valid CPF or CNPJ (check digits)' },
    { field: 'splitRules[2].recipientDocument', message: PROBLEMS.taxIdShape.en },
  ]);
  assert.equal(refused([pct('11222333000180', 10)]).kind, 'VALIDATION_ERROR'); // CNPJ, last digit off
  assert.equal(refused([pct('11111111111', 10)]).kind, 'VALIDATION_ERROR'); // repeated digits
  assert.equal(refused([pct('12ABC34501DE36', 10)]).kind, 'VALIDATION_ERROR'); // alphanumeric CNPJ, last digit off
});

test('an alphanumeric CNPJ is a recipient like any other', () => {
  const result = validateSplitRules([pct('12ABC34501DE35', 10)], 10_000, SELLER);
  assert.ok(result.ok, JSON.stringify(result));
});

test('more than 20 rules is a VALIDATION_ERROR on splitRules', () => {
  const rules = Array.from({ length: 21 }, () => fixed(A, 1));
  const result = refused(rules, 1000);
  assert.equal(result.kind, 'VALIDATION_ERROR');
  assert.deepEqual(inEnglish(result.problems), [{ field: 'splitRules', message: 'at most 20 split rules' }]);
});

test('slicesOf refuses rules that were not validated rather than guess', () => {
  assert.throws(() => slicesOf([pct(A, 10.555)], 1000, SELLER), RangeError);
  assert.throws(() => slicesOf([fixed(A, 1001)], 1000, SELLER), RangeError);
  assert.throws(() => slicesOf([], 0, SELLER), RangeError);
});

test('lists distinct recipients to look up, and names the unapproved ones', () => {
  const rules = [pct(A, 1), fixed(B, 1), fixed(A, 1)];
  assert.deepEqual(distinctRecipientDocuments(rules), [A, B]);
  assert.deepEqual(inEnglish(unapprovedRecipientProblems(rules, (doc) => doc === B)), [
    { field: 'splitRules[0].recipientDocument', message: 'not an approved account in the service' },
    { field: 'splitRules[2].recipientDocument', message: 'not an approved account in the service' },
  ]);
});
