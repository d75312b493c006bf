/**
 * Property tests of the split: whatever the sale, the receivables add up.
 * Generated valid sales (amount, rules, method, installments, fee plan, date)
 * must give receivables meeting the contract's invariants; arbitrary rule sets
 * are either refused with well-formed fields or meet the same invariants.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FeePlan } from '../../db/types.js';
import { MAX_AMOUNT_CENTS, percentOfFloor } from '../../lib/money.js';
import { addDays } from '../../lib/sao-paulo-date.js';
import { isValidTaxId } from '../../lib/tax-id.js';
import { DEFAULT_FEE_PLAN, saleFeeCents } from '../fees/index.js';
import {
  allocateFee,
  computeReceivables,
  isBusinessDay,
  percentageToBasisPoints,
  validateSplitRules,
  type ReceivableLine,
  type Slice,
  type SplitPaymentMethod,
  type SplitRuleInput,
} from './index.js';

const SELLER = '11222333000181';

/** Appends the two mod-11 check digits to a CPF (9-digit) or CNPJ (12-digit) base. */
function withCheckDigits(base: string): string {
  let doc = base;
  for (let k = 0; k < 2; k++) {
    const n = doc.length; // CPF weights n+1 … 2; CNPJ weights 2 … 9 repeating from the right
    const sum = [...doc].reduce((s, d, i) => s + Number(d) * (base.length === 9 ? n + 1 - i : 2 + ((n - 1 - i) % 8)), 0);
    doc += String(sum % 11 < 2 ? 0 : 11 - (sum % 11));
  }
  return doc;
}
const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
const validDoc = fc
  .oneof(digits(9).map(withCheckDigits), digits(12).map(withCheckDigits))
  .filter((doc) => isValidTaxId(doc) && doc !== SELLER);

const methodArb = fc.constantFrom<SplitPaymentMethod>('PIX', 'BOLETO', 'CREDIT_CARD');
const bpArb = fc.integer({ min: 0, max: 2000 });
const planArb: fc.Arbitrary<FeePlan> = fc.oneof(
  fc.constant(DEFAULT_FEE_PLAN),
  fc.record({ pixBp: bpArb, boletoFlatCents: fc.integer({ min: 0, max: 100_000 }), card1Bp: bpArb, card2to6Bp: bpArb, card7to12Bp: bpArb }),
);

interface Sale {
  amountCents: number;
  paymentMethod: SplitPaymentMethod;
  installments: number;
  feeCents: number;
  rules: SplitRuleInput[];
  paidOn: string;
}

interface Draft {
  recipientDocument: string;
  type: 'PERCENTAGE' | 'FIXED';
  u: number;
}

/**
 * Rules that fit: each draft takes a fraction `u` of what is still free, in
 * basis points (percentage) or centavos (fixed), so Σ percentages ≤ 100 and
 * Σ slices ≤ amount; a draft finding nothing free is dropped.
 */
function fittingRules(amountCents: number, drafts: Draft[]): SplitRuleInput[] {
  let bpLeft = 10_000;
  let centsLeft = amountCents;
  const rules: SplitRuleInput[] = [];
  for (const { recipientDocument, type, u } of drafts) {
    if (type === 'PERCENTAGE') {
      const maxBp = Math.min(bpLeft, Math.floor((centsLeft * 10_000) / amountCents));
      if (maxBp < 1) continue;
      const bp = Math.max(1, Math.floor((u * maxBp) / 10_000));
      rules.push({ recipientDocument, type, percentage: bp / 100 });
      bpLeft -= bp;
      centsLeft -= percentOfFloor(amountCents, bp);
    } else {
      if (centsLeft < 1) continue;
      const cents = Math.max(1, Math.floor((u * centsLeft) / 10_000));
      rules.push({ recipientDocument, type, amountCents: cents });
      centsLeft -= cents;
    }
  }
  return rules;
}

const saleArb: fc.Arbitrary<Sale> = fc
  .record({
    amountCents: fc.oneof(fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }), fc.integer({ min: 1, max: 2_000 })),
    paymentMethod: methodArb,
    cardInstallments: fc.integer({ min: 1, max: 12 }),
    plan: planArb,
    drafts: fc.uniqueArray(
      fc.record({
        recipientDocument: validDoc,
        type: fc.constantFrom<'PERCENTAGE' | 'FIXED'>('PERCENTAGE', 'FIXED'),
        u: fc.integer({ min: 0, max: 10_000 }),
      }),
      { selector: (d) => d.recipientDocument, maxLength: 20, size: 'max' },
    ),
    paidOffset: fc.integer({ min: 0, max: 365 * 7 }),
  })
  .map(({ amountCents, paymentMethod, cardInstallments, plan, drafts, paidOffset }) => {
    const installments = paymentMethod === 'CREDIT_CARD' ? cardInstallments : 1;
    const feeCents = saleFeeCents(plan, paymentMethod, installments, amountCents);
    return { amountCents, paymentMethod, installments, feeCents, rules: fittingRules(amountCents, drafts), paidOn: addDays('2024-01-01', paidOffset) };
  });

/** The contract's invariants, checked without reusing the code under test's arithmetic. */
function assertReceivables(sale: Sale, slices: Slice[], lines: ReceivableLine[]): void {
  const { amountCents, feeCents, installments } = sale;
  const sum = (f: (l: ReceivableLine) => number) => lines.reduce((s, l) => s + f(l), 0);
  assert.equal(sum((l) => l.grossAmountCents), amountCents, 'Σ gross = amount');
  assert.equal(sum((l) => l.feeCents), feeCents, 'Σ fee = fee');
  assert.equal(sum((l) => l.amountCents), amountCents - feeCents, 'Σ amount = amount − fee');
  assert.equal(lines.length, slices.length * installments);

  const grossTotal = BigInt(amountCents);
  slices.forEach((slice, i) => {
    const own = lines.filter((l) => l.recipientDocument === slice.recipientDocument);
    assert.deepEqual(own.map((l) => l.installment), Array.from({ length: installments }, (_, k) => k + 1), 'one line per installment');
    assert.ok(own.every((l) => l.role === slice.role));
    assert.equal(own.reduce((s, l) => s + l.grossAmountCents, 0), slice.grossAmountCents, "an account's lines add up to its slice");
    // Largest remainder: the slice's fee is within one centavo of its exact share.
    const fee = BigInt(own.reduce((s, l) => s + l.feeCents, 0));
    const gap = fee * grossTotal - BigInt(feeCents) * BigInt(slice.grossAmountCents);
    assert.ok(gap > -grossTotal && gap < grossTotal, `fee of slice ${i} is off its share by a centavo or more`);
    for (let k = 1; k < own.length; k++) assert.ok(own[k]!.expectedOn > own[k - 1]!.expectedOn, 'installment dates increase');
  });

  lines.forEach((l, k) => {
    assert.ok(Number.isSafeInteger(l.grossAmountCents) && Number.isSafeInteger(l.feeCents));
    assert.ok(l.feeCents >= 0 && l.amountCents >= 0 && l.amountCents === l.grossAmountCents - l.feeCents, 'no negative line');
    assert.equal(l.installment, Math.floor(k / slices.length) + 1, 'ordered by installment');
    assert.equal(l.recipientDocument, slices[k % slices.length]!.recipientDocument, 'then seller, then rule order');
    assert.ok(l.expectedOn > sale.paidOn && isBusinessDay(l.expectedOn), 'a business day after payment');
    // The first business day on or after D+1 / D+30n: every day before it is not one.
    const due = addDays(sale.paidOn, sale.paymentMethod === 'CREDIT_CARD' ? 30 * l.installment : 1);
    assert.ok(l.expectedOn >= due);
    for (let d = due; d < l.expectedOn; d = addDays(d, 1)) assert.ok(!isBusinessDay(d), `${d} was skipped`);
  });
}

test('valid sales: receivables add up, never go negative, and fall on business days', () => {
  fc.assert(
    fc.property(saleArb, (sale) => {
      const validation = validateSplitRules(sale.rules, sale.amountCents, SELLER);
      assert.ok(validation.ok, `fitting rules refused: ${JSON.stringify(validation)}`);
      assertReceivables(sale, validation.slices, computeReceivables({ ...sale, sellerDocument: SELLER }));
    }),
    { numRuns: 10_000 },
  );
});

/** An independent reading of the contract: would these rules be accepted? */
function acceptable(rules: SplitRuleInput[], amountCents: number): boolean {
  if (rules.length > 20) return false;
  const docs = rules.map((r) => r.recipientDocument);
  if (docs.some((d) => !isValidTaxId(d) || d === SELLER) || new Set(docs).size !== docs.length) return false;
  let bp = 0;
  let cents = 0;
  for (const r of rules) {
    if (r.type === 'PERCENTAGE') {
      const p = r.percentage;
      if (p === undefined || r.amountCents !== undefined || !(p > 0 && p <= 100) || Number(p.toFixed(2)) !== p) return false;
      bp += Math.round(p * 100);
      cents += percentOfFloor(amountCents, Math.round(p * 100));
    } else {
      const a = r.amountCents;
      if (a === undefined || r.percentage !== undefined || !Number.isSafeInteger(a) || a <= 0) return false;
      cents += a;
    }
  }
  return bp <= 10_000 && cents <= amountCents;
}

const FIELD = /^splitRules(?:\[(\d+)\]\.(?:recipientDocument|percentage|amountCents))?$/;
const strangeDoc = fc.constantFrom(SELLER, '52998224726', '123', '111111111111111', '11111111111', '00000000000000');
const percentageArb = fc.oneof(
  fc.integer({ min: -100, max: 12_000 }).map((bp) => bp / 100),
  fc.constantFrom(10.555, 0.001, 1e-7, 0, -0, 100, 100.01, 33.33, 0.1 + 0.2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const centsArb = fc.oneof(fc.integer({ min: -10, max: 5_000 }), fc.integer({ min: -1e12, max: 1e12 }), fc.constant(MAX_AMOUNT_CENTS + 1));
const anyRule: fc.Arbitrary<SplitRuleInput> = fc.record(
  {
    recipientDocument: fc.oneof({ weight: 4, arbitrary: validDoc }, { weight: 1, arbitrary: strangeDoc }),
    type: fc.constantFrom<'PERCENTAGE' | 'FIXED'>('PERCENTAGE', 'FIXED'),
    percentage: percentageArb,
    amountCents: centsArb,
  },
  { requiredKeys: ['recipientDocument', 'type'] },
);
/** A rule carrying only its own type's value: refused only for its value, its recipient or the sums. */
const coherentRule: fc.Arbitrary<SplitRuleInput> = fc.oneof(
  fc.record({ recipientDocument: validDoc, type: fc.constant('PERCENTAGE' as const), percentage: percentageArb }),
  fc.record({ recipientDocument: validDoc, type: fc.constant('FIXED' as const), amountCents: centsArb }),
);
/** A fitting sale with one rule replaced by another, or (one time in four) a rule repeating a recipient. */
const nearMissArb: fc.Arbitrary<Sale> = fc
  .tuple(
    saleArb,
    fc.oneof({ weight: 1, arbitrary: anyRule }, { weight: 3, arbitrary: coherentRule }),
    fc.nat(),
    fc.nat({ max: 3 }).map((n) => n === 0),
  )
  .map(([sale, rule, at, duplicate]) => {
    const rules = [...sale.rules];
    if (rules.length > 0 && duplicate) rules.push({ ...rule, recipientDocument: rules[at % rules.length]!.recipientDocument });
    else rules.splice(rules.length > 0 ? at % rules.length : 0, 1, rule);
    return { ...sale, rules };
  });
/** Arbitrary rule sets, and more often near misses: that is where bugs hide. */
const anySaleArb: fc.Arbitrary<Sale> = fc.oneof(
  { weight: 1, arbitrary: fc.tuple(saleArb, fc.array(anyRule, { maxLength: 22, size: 'max' })).map(([sale, rules]) => ({ ...sale, rules })) },
  { weight: 2, arbitrary: nearMissArb },
);

test('any rules: accepted ones give sound receivables, refused ones name their fields', () => {
  let accepted = 0;
  fc.assert(
    fc.property(anySaleArb, (sale) => {
      const { rules, amountCents } = sale;
      const validation = validateSplitRules(rules, amountCents, SELLER);
      assert.equal(validation.ok, acceptable(rules, amountCents), 'accepted exactly when the contract allows');
      if (validation.ok) {
        accepted++;
        assertReceivables(sale, validation.slices, computeReceivables({ ...sale, sellerDocument: SELLER }));
        return;
      }
      assert.ok(validation.problems.length > 0);
      for (const { field, message } of validation.problems) {
        const m = FIELD.exec(field);
        assert.ok(m, `malformed field ${field}`);
        assert.ok(m[1] === undefined || Number(m[1]) < rules.length, `field ${field} names no rule`);
        assert.ok(message.en.length > 0 && message['pt-BR'].length > 0);
      }
      const shapeBroken = rules.length > 20 || rules.some((r) => !isValidTaxId(r.recipientDocument));
      assert.equal(validation.kind, shapeBroken ? 'VALIDATION_ERROR' : 'SPLIT_INVALID');
    }),
    { numRuns: 10_000 },
  );
  assert.ok(accepted > 500, `too few accepted rule sets to mean anything: ${accepted}`);
});

test('basis points are exact: defined exactly for numbers with at most 2 decimals', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.integer({ min: -1e9, max: 1e9 }).map((bp) => bp / 100), fc.double({ min: -1e13, max: 1e13, noNaN: true })),
      (p) => {
        const bp = percentageToBasisPoints(p);
        assert.equal(bp !== undefined, Number(p.toFixed(2)) === p, String(p));
        if (bp !== undefined) {
          assert.ok(Number.isSafeInteger(bp));
          assert.equal(bp / 100, p === 0 ? 0 : p); // -0 reads as 0 bp
        }
      },
    ),
    { numRuns: 10_000 },
  );
});

test('fee allocation: parts add up, fit their slices, and follow the largest remainders', () => {
  const slicesArb = fc.array(fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: MAX_AMOUNT_CENTS })), { minLength: 1, maxLength: 21 });
  fc.assert(
    fc.property(slicesArb, fc.double({ min: 0, max: 1, noNaN: true }), (grosses, f) => {
      const slices: Slice[] = grosses.map((g, i) => ({ recipientDocument: String(i), role: i === 0 ? 'SELLER' : 'CUSTOM_SPLIT_RECIPIENT', grossAmountCents: g }));
      const total = grosses.reduce((s, g) => s + g, 0);
      const fee = Math.floor(total * f);
      const parts = allocateFee(slices, fee);
      assert.equal(parts.reduce((s, p) => s + p, 0), fee);
      const G = BigInt(total);
      const rem = grosses.map((g) => (G === 0n ? 0n : (BigInt(fee) * BigInt(g)) % G));
      grosses.forEach((g, i) => {
        assert.ok(parts[i]! >= 0 && parts[i]! <= g);
        const floor = G === 0n ? 0n : (BigInt(fee) * BigInt(g)) / G;
        assert.ok(BigInt(parts[i]!) === floor || BigInt(parts[i]!) === floor + 1n);
      });
      // Who got an extra centavo has a larger remainder than who did not, or an equal one and
      // precedence (the seller, slice 0 here, then the earlier slice).
      const extra = grosses.map((g, i) => G !== 0n && BigInt(parts[i]!) * G > BigInt(fee) * BigInt(g));
      for (let i = 0; i < grosses.length; i++) {
        for (let j = 0; j < grosses.length; j++) {
          if (extra[i] && !extra[j]) assert.ok(rem[i]! > rem[j]! || (rem[i] === rem[j] && i < j), `slice ${i} over ${j}`);
        }
      }
    }),
    { numRuns: 2_000 },
  );
});
