/**
 * Property tests of reversals: whatever the sale (split, installments, fee
 * plan), whichever lines were already paid out, and whatever sequence of
 * refunds follows, the receivables keep the contract's invariants:
 * Σ gross = amount − refunded, Σ fee = fee kept, Σ amount = net; no sale line
 * is negative, no slice goes below zero, and a full refund leaves every slice
 * at zero.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FeePlan } from '../../db/types.js';
import { DEFAULT_FEE_PLAN, saleFeeCents } from '../fees/index.js';
import { computeReceivables, feeKeptAfter, reverseLines, validateSplitRules, type ReversalLine, type SplitPaymentMethod, type SplitRuleInput } from './index.js';

const SELLER = '11222333000181';
/** Valid CPFs for the recipients. */
const RECIPIENTS = ['52998224725', '11144477735', '12345678909', '98765432100', '39053344705'];

const bpArb = fc.integer({ min: 0, max: 2000 });
const planArb: fc.Arbitrary<FeePlan> = fc.oneof(
  fc.constant(DEFAULT_FEE_PLAN),
  fc.record({ pixBp: bpArb, boletoFlatCents: fc.integer({ min: 0, max: 5_000 }), card1Bp: bpArb, card2to6Bp: bpArb, card7to12Bp: bpArb }),
);

const scenarioArb = fc.record({
  amountCents: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 9_999_999_999 })),
  method: fc.constantFrom<SplitPaymentMethod>('PIX', 'BOLETO', 'CREDIT_CARD'),
  installments: fc.integer({ min: 1, max: 12 }),
  plan: planArb,
  /** Each recipient's slice: a fraction (basis points) of what is left, as a percentage or a fixed amount. */
  shares: fc.array(fc.record({ percentage: fc.boolean(), u: fc.integer({ min: 1, max: 6_000 }) }), { maxLength: RECIPIENTS.length }),
  /** Per refund: its size as a fraction of what is left (10 000: all of it), and which PENDING lines are paid out before it. */
  refunds: fc.array(fc.record({ u: fc.integer({ min: 1, max: 10_000 }), payOut: fc.array(fc.boolean(), { maxLength: 80 }) }), { minLength: 1, maxLength: 8 }),
  finishWithFullRefund: fc.boolean(),
  paidAtStart: fc.array(fc.boolean(), { maxLength: 80 }),
});

function rulesOf(amountCents: number, shares: { percentage: boolean; u: number }[]): SplitRuleInput[] {
  let left = amountCents;
  let bpLeft = 10_000;
  const rules: SplitRuleInput[] = [];
  shares.forEach(({ percentage, u }, i) => {
    const cents = Math.floor((left * u) / 10_000);
    if (cents < 1) return;
    if (percentage) {
      const bp = Math.min(bpLeft, Math.floor((cents * 10_000) / amountCents));
      if (bp < 1) return;
      bpLeft -= bp;
      rules.push({ recipientDocument: RECIPIENTS[i]!, type: 'PERCENTAGE', percentage: bp / 100 });
      left -= Math.floor((amountCents * bp) / 10_000);
    } else {
      rules.push({ recipientDocument: RECIPIENTS[i]!, type: 'FIXED', amountCents: cents });
      left -= cents;
    }
  });
  return rules;
}

const sum = (lines: ReversalLine[], f: (l: ReversalLine) => number) => lines.reduce((s, l) => s + f(l), 0);

test('any sequence of refunds keeps the receivables adding up, never negative, and a full refund zeroes every slice', () => {
  fc.assert(
    fc.property(scenarioArb, (s) => {
      const installments = s.method === 'CREDIT_CARD' ? s.installments : 1;
      const fee = saleFeeCents(s.plan, s.method, installments, s.amountCents);
      const rules = rulesOf(s.amountCents, s.shares);
      assert.ok(validateSplitRules(rules, s.amountCents, SELLER).ok, JSON.stringify(rules));
      let lines: ReversalLine[] = computeReceivables({ amountCents: s.amountCents, feeCents: fee, installments, paymentMethod: s.method, sellerDocument: SELLER, rules, paidOn: '2026-11-20' }).map(
        (l, i) => ({ id: `l${i}`, recipientDocument: l.recipientDocument, role: l.role, installment: l.installment, status: s.paidAtStart[i] ? 'PAID' : 'PENDING', adjustment: false, feeCents: l.feeCents, amountCents: l.amountCents }),
      );
      let refunded = 0;
      const steps = s.finishWithFullRefund ? [...s.refunds, { u: 10_000, payOut: [] }] : s.refunds;
      for (const step of steps) {
        const left = s.amountCents - refunded;
        if (left === 0) break;
        lines = lines.map((l, i) => (step.payOut[i] ? { ...l, status: 'PAID' } : l));
        const amount = Math.max(1, Math.floor((left * step.u) / 10_000));
        const feeBefore = feeKeptAfter(fee, s.amountCents, refunded);
        const feeAfter = feeKeptAfter(fee, s.amountCents, refunded + amount);
        const before = new Map(lines.map((l) => [l.id, l]));
        const { changes, adjustments } = reverseLines(lines, feeBefore - feeAfter, amount - (feeBefore - feeAfter));
        for (const c of changes) {
          const old = before.get(c.id)!;
          assert.equal(old.status, 'PENDING', 'only PENDING lines change');
          assert.equal(old.adjustment, false, 'adjustment lines never change');
          assert.ok(c.feeCents <= old.feeCents && c.amountCents <= old.amountCents, 'a line only goes down');
        }
        const changed = new Map(changes.map((c) => [c.id, c]));
        lines = lines.map((l) => {
          const c = changed.get(l.id);
          return c ? { ...l, feeCents: c.feeCents, amountCents: c.amountCents } : l;
        });
        adjustments.forEach((a, k) => {
          assert.ok(a.feeCents <= 0 && a.amountCents <= 0 && a.feeCents + a.amountCents < 0, 'an adjustment takes money back');
          lines.push({ id: `a${refunded}-${k}`, recipientDocument: a.recipientDocument, role: a.role, installment: 0, status: 'PENDING', adjustment: true, feeCents: a.feeCents, amountCents: a.amountCents });
        });
        refunded += amount;

        assert.equal(sum(lines, (l) => l.feeCents + l.amountCents), s.amountCents - refunded, 'Σ gross = amount − refunded');
        assert.equal(sum(lines, (l) => l.feeCents), feeAfter, 'Σ fee = fee kept');
        assert.equal(sum(lines, (l) => l.amountCents), s.amountCents - refunded - feeAfter, 'Σ amount = net');
        for (const l of lines) if (!l.adjustment) assert.ok(l.feeCents >= 0 && l.amountCents >= 0, `sale line ${JSON.stringify(l)} is negative`);
        for (const doc of new Set(lines.map((l) => l.recipientDocument))) {
          const own = lines.filter((l) => l.recipientDocument === doc);
          assert.ok(sum(own, (l) => l.feeCents) >= 0 && sum(own, (l) => l.amountCents) >= 0, `slice ${doc} went below zero`);
          if (refunded === s.amountCents) assert.deepEqual([sum(own, (l) => l.feeCents), sum(own, (l) => l.amountCents)], [0, 0], 'a full refund zeroes every slice');
        }
      }
      if (s.finishWithFullRefund) assert.equal(refunded, s.amountCents);
    }),
    { numRuns: 3_000 },
  );
});

test('the fee kept is F − floor(F × R / A): all of it back on a full refund, never more than the sale fee', () => {
  assert.equal(feeKeptAfter(558, 15_990, 0), 558);
  assert.equal(feeKeptAfter(558, 15_990, 5_000), 558 - Math.floor((558 * 5_000) / 15_990));
  assert.equal(feeKeptAfter(558, 15_990, 15_990), 0);
  assert.throws(() => feeKeptAfter(558, 15_990, 15_991), RangeError);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), fc.nat(), fc.nat(), (amount, a, b) => {
      const fee = a % (amount + 1);
      const [r1, r2] = [a % (amount + 1), b % (amount + 1)].sort((x, y) => x - y) as [number, number];
      const k1 = feeKeptAfter(fee, amount, r1);
      const k2 = feeKeptAfter(fee, amount, r2);
      assert.ok(k2 <= k1 && k1 <= fee && k2 >= 0, 'the fee kept only goes down');
      assert.ok(k2 <= amount - r2, 'the fee kept never exceeds what is left of the sale');
    }),
  );
});
