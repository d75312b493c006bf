import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saleFeeCents, DEFAULT_FEE_PLAN } from '../fees/index.js';
import { allocateFee, computeReceivables, splitInstallments, type Slice, type SplitRuleInput } from './index.js';

const SELLER = '11222333000181';
const A = '52998224725';
const B = '12345678909';
const C = '98765432100';

const slice = (role: Slice['role'], grossAmountCents: number, recipientDocument = role === 'SELLER' ? SELLER : A): Slice => ({
  recipientDocument,
  role,
  grossAmountCents,
});

/*
 * Hand-computed example. A Pix sale of 100 001 centavos (R$ 1 000,01).
 * Fee: 0.99 % half-up = floor((100 001 × 99 + 5 000) / 10 000) = floor(990.5099) = 990.
 * Rules: A 33.33 %, B 33.33 %, C FIXED 10 000.
 *   A, B: floor(100 001 × 3 333 / 10 000) = floor(33 330.3333) = 33 330 each
 *   C:    10 000
 *   seller: 100 001 − 33 330 − 33 330 − 10 000 = 23 341
 * Fee shares, 990 × gross / 100 001 (quotient, remainder over 100 001):
 *   seller: 990 × 23 341 = 23 107 590 = 231 × 100 001 +  7 359 → 231.0736
 *   A, B:   990 × 33 330 = 32 996 700 = 329 × 100 001 + 96 371 → 329.9637
 *   C:      990 × 10 000 =  9 900 000 =  98 × 100 001 + 99 902 → 98.9990
 * Floors: 231 + 329 + 329 + 98 = 987; 3 centavos left (remainders add up to
 * 300 003 = 3 × 100 001). They go to the 3 largest remainders: C (99 902),
 * then A and B (96 371 each; the tie is between recipients, rule order).
 * Fees: seller 231, A 330, B 330, C 99 = 990.
 * Net:  seller 23 110, A 33 000, B 33 000, C 9 901 = 99 011 = 100 001 − 990.
 */
const EXAMPLE_RULES: SplitRuleInput[] = [
  { recipientDocument: A, type: 'PERCENTAGE', percentage: 33.33 },
  { recipientDocument: B, type: 'PERCENTAGE', percentage: 33.33 },
  { recipientDocument: C, type: 'FIXED', amountCents: 10_000 },
];

test('hand-computed example: the 990 fee of a R$ 1 000,01 Pix sale by largest remainder', () => {
  assert.equal(saleFeeCents(DEFAULT_FEE_PLAN, 'PIX', 1, 100_001), 990);
  const slices = [
    slice('SELLER', 23_341),
    slice('CUSTOM_SPLIT_RECIPIENT', 33_330, A),
    slice('CUSTOM_SPLIT_RECIPIENT', 33_330, B),
    slice('CUSTOM_SPLIT_RECIPIENT', 10_000, C),
  ];
  assert.deepEqual(allocateFee(slices, 990), [231, 330, 330, 99]);
});

test('hand-computed example: receivables, paid on a Friday before Carnaval', () => {
  const lines = computeReceivables({
    amountCents: 100_001,
    feeCents: 990,
    installments: 1,
    paymentMethod: 'PIX',
    sellerDocument: SELLER,
    rules: EXAMPLE_RULES,
    paidOn: '2026-02-13', // Friday; D+1 is Saturday, then Sunday, Carnaval Monday and Tuesday
  });
  const on = '2026-02-18';
  assert.deepEqual(lines, [
    { recipientDocument: SELLER, role: 'SELLER', installment: 1, grossAmountCents: 23_341, feeCents: 231, amountCents: 23_110, expectedOn: on },
    { recipientDocument: A, role: 'CUSTOM_SPLIT_RECIPIENT', installment: 1, grossAmountCents: 33_330, feeCents: 330, amountCents: 33_000, expectedOn: on },
    { recipientDocument: B, role: 'CUSTOM_SPLIT_RECIPIENT', installment: 1, grossAmountCents: 33_330, feeCents: 330, amountCents: 33_000, expectedOn: on },
    { recipientDocument: C, role: 'CUSTOM_SPLIT_RECIPIENT', installment: 1, grossAmountCents: 10_000, feeCents: 99, amountCents: 9_901, expectedOn: on },
  ]);
});

test('a tie in remainders goes to the seller, then to the earlier rule', () => {
  // 1 centavo over two equal slices: 0.5 each.
  assert.deepEqual(allocateFee([slice('SELLER', 1), slice('CUSTOM_SPLIT_RECIPIENT', 1)], 1), [1, 0]);
  // Seller listed last still wins the tie.
  assert.deepEqual(allocateFee([slice('CUSTOM_SPLIT_RECIPIENT', 1), slice('SELLER', 1)], 1), [0, 1]);
  // Shares 1, 0.5, 0.5: the leftover centavo goes to the first recipient.
  assert.deepEqual(allocateFee([slice('SELLER', 2), slice('CUSTOM_SPLIT_RECIPIENT', 1, A), slice('CUSTOM_SPLIT_RECIPIENT', 1, B)], 2), [1, 1, 0]);
});

test('fee allocation is exact beyond 2^53', () => {
  // Σ = 10^10, fee = 10^10 − 1: shares 6 666 666 666.333… and 3 333 333 332.666…
  const slices = [slice('SELLER', 6_666_666_667), slice('CUSTOM_SPLIT_RECIPIENT', 3_333_333_333)];
  assert.deepEqual(allocateFee(slices, 9_999_999_999), [6_666_666_666, 3_333_333_333]);
});

test('a zero fee, a fee equal to the whole, and zero slices', () => {
  assert.deepEqual(allocateFee([slice('SELLER', 7), slice('CUSTOM_SPLIT_RECIPIENT', 3)], 0), [0, 0]);
  assert.deepEqual(allocateFee([slice('SELLER', 7), slice('CUSTOM_SPLIT_RECIPIENT', 3)], 10), [7, 3]);
  assert.deepEqual(allocateFee([slice('SELLER', 0), slice('CUSTOM_SPLIT_RECIPIENT', 3)], 2), [0, 2]);
  assert.throws(() => allocateFee([slice('SELLER', 3)], 4), RangeError);
});

test('installments are equal parts with the remainder on installment 1', () => {
  assert.deepEqual(splitInstallments(1000, 3), [334, 333, 333]);
  assert.deepEqual(splitInstallments(5, 12), [5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(splitInstallments(0, 2), [0, 0]);
  assert.deepEqual(splitInstallments(11, 1), [11]);
});

test('card installments fall every 30 days, on business days', () => {
  // R$ 10,00 in 3 installments: fee 3.99 % = 39.9 → 40. Gross 334/333/333, fee 14/13/13.
  const fee = saleFeeCents(DEFAULT_FEE_PLAN, 'CREDIT_CARD', 3, 1000);
  assert.equal(fee, 40);
  const lines = computeReceivables({
    amountCents: 1000, feeCents: fee, installments: 3, paymentMethod: 'CREDIT_CARD', sellerDocument: SELLER, rules: [], paidOn: '2026-01-05',
  });
  assert.deepEqual(
    lines.map((l) => [l.installment, l.grossAmountCents, l.feeCents, l.amountCents, l.expectedOn]),
    [
      [1, 334, 14, 320, '2026-02-04'], // D+30, a Wednesday
      [2, 333, 13, 320, '2026-03-06'], // D+60, a Friday
      [3, 333, 13, 320, '2026-04-06'], // D+90 is Easter Sunday 2026-04-05
    ],
  );
});

test("installment 1's fee never exceeds its gross: the excess moves to later installments", () => {
  // 12 centavos in 12 installments at 20 %: fee = round(2.4) = 2. Equal division
  // gives installment 1 gross 1 and fee 2; one centavo of fee moves to installment 2.
  const fee = saleFeeCents({ ...DEFAULT_FEE_PLAN, card7to12Bp: 2000 }, 'CREDIT_CARD', 12, 12);
  assert.equal(fee, 2);
  const lines = computeReceivables({
    amountCents: 12, feeCents: fee, installments: 12, paymentMethod: 'CREDIT_CARD', sellerDocument: SELLER, rules: [], paidOn: '2026-01-05',
  });
  assert.deepEqual(lines.map((l) => l.grossAmountCents), Array(12).fill(1));
  assert.deepEqual(lines.map((l) => l.feeCents), [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(lines.map((l) => l.amountCents), [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
});

test('boleto is paid D+1 after payment, past Christmas and the weekend', () => {
  const lines = computeReceivables({
    amountCents: 10_000, feeCents: 349, installments: 1, paymentMethod: 'BOLETO', sellerDocument: SELLER,
    rules: [{ recipientDocument: A, type: 'FIXED', amountCents: 2_500 }], paidOn: '2026-12-24',
  });
  // Shares 349 × 7 500 / 10 000 = 261.75 and 349 × 2 500 / 10 000 = 87.25: floors 261 + 87, one left to 0.75.
  assert.deepEqual(
    lines.map((l) => [l.role, l.grossAmountCents, l.feeCents, l.amountCents, l.expectedOn]),
    [
      ['SELLER', 7_500, 262, 7_238, '2026-12-28'],
      ['CUSTOM_SPLIT_RECIPIENT', 2_500, 87, 2_413, '2026-12-28'],
    ],
  );
});

test('lines are ordered by installment, then seller, then recipients in rule order', () => {
  const lines = computeReceivables({
    amountCents: 100_001, feeCents: 3_990, installments: 2, paymentMethod: 'CREDIT_CARD', sellerDocument: SELLER,
    rules: EXAMPLE_RULES, paidOn: '2026-01-05',
  });
  assert.deepEqual(
    lines.map((l) => `${l.installment}:${l.recipientDocument}`),
    [1, 2].flatMap((n) => [SELLER, A, B, C].map((doc) => `${n}:${doc}`)),
  );
});

test('inconsistent input is refused, not rounded away', () => {
  const base = { amountCents: 1000, feeCents: 10, installments: 1, paymentMethod: 'PIX' as const, sellerDocument: SELLER, rules: [], paidOn: '2026-01-05' };
  assert.throws(() => computeReceivables({ ...base, installments: 2 }), RangeError); // Pix has 1 installment
  assert.throws(() => computeReceivables({ ...base, paymentMethod: 'CREDIT_CARD', installments: 13 }), RangeError);
  assert.throws(() => computeReceivables({ ...base, feeCents: 1001 }), RangeError);
  assert.throws(() => computeReceivables({ ...base, paidOn: '2026-13-01' }), RangeError);
});
