import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TransactionRow } from '../../db/types.js';
import { merge, paidDeltas, reversalDeltas, settledDeltas, shardOf, SHARDS } from './rules.js';

const sale = (over: Partial<TransactionRow> = {}) =>
  ({ id: 'trx_01kbz5f7c0a9x3m2n4p6q8r0s2', company_id: 'cmp_1', amount_cents: 10_000, fee_cents: 99, refunded_cents: 0, charged_back_at: null, paid_at: new Date('2026-11-22T02:59:30Z'), ...over }) as TransactionRow;

test("a sale's rows are one shard of SHARDS, the same for its payment and its reversals", () => {
  const shards = new Set(Array.from({ length: 200 }, (_, i) => shardOf(`trx_${String(i).padStart(26, '0')}`)));
  assert.ok([...shards].every((s) => Number.isInteger(s) && s >= 0 && s < SHARDS));
  assert.equal(shards.size, SHARDS, 'ids spread over every shard');
  const [paid] = paidDeltas(sale(), new Date('2026-11-22T02:59:30Z'), []);
  const [reversed] = reversalDeltas(sale(), { kind: 'REFUND', amountCents: 100, feeReturnedCents: 1 }, [], []);
  assert.equal(paid!.shard, reversed!.shard);
});

test('a payment counts on its São Paulo day; its lines on their expected dates', () => {
  // 02:59:30 UTC on the 22nd is 23:59:30 on the 21st in São Paulo.
  assert.deepEqual(
    paidDeltas(sale(), new Date('2026-11-22T02:59:30Z'), [{ expected_on: '2026-11-23', amount_cents: 9_901 }]).map(({ shard: _, ...d }) => d),
    [
      { companyId: 'cmp_1', day: '2026-11-21', paid_count: 1, paid_cents: 10_000, fee_cents: 99 },
      { companyId: 'cmp_1', day: '2026-11-23', to_receive_cents: 9_901 },
    ],
  );
});

test("a reversal counts on the sale's paid day, the sale once: its first refund, its chargeback", () => {
  const [first] = reversalDeltas(sale(), { kind: 'REFUND', amountCents: 2_500, feeReturnedCents: 24 }, [], []);
  assert.deepEqual({ ...first, shard: 0 }, { companyId: 'cmp_1', day: '2026-11-21', shard: 0, fee_cents: -24, refunded_count: 1, refunded_cents: 2_500 });
  const [second] = reversalDeltas(sale({ refunded_cents: 2_500 }), { kind: 'REFUND', amountCents: 500, feeReturnedCents: 5 }, [], []);
  assert.equal(second!.refunded_count, 0);
  const [chargeback] = reversalDeltas(sale({ refunded_cents: 2_500 }), { kind: 'CHARGEBACK', amountCents: 7_500, feeReturnedCents: 70 }, [], []);
  assert.deepEqual([chargeback!.charged_back_count, chargeback!.charged_back_cents, chargeback!.refunded_count], [1, 7_500, undefined]);
  assert.throws(() => reversalDeltas(sale({ paid_at: null }), { kind: 'REFUND', amountCents: 1, feeReturnedCents: 0 }, [], []), /never paid/);
});

test('merge adds up the deltas of one row, leaves out rows that change nothing, and orders them by company, day and shard', () => {
  const merged = merge([
    ...settledDeltas([{ companyId: 'cmp_2', expectedOn: '2026-11-23', amount: 500 }], '2026-11-23'),
    { companyId: 'cmp_1', day: '2026-11-24', shard: 3, to_receive_cents: 100 },
    { companyId: 'cmp_1', day: '2026-11-24', shard: 3, to_receive_cents: -100 },
    { companyId: 'cmp_1', day: '2026-11-22', shard: 5, paid_count: 1 },
    { companyId: 'cmp_1', day: '2026-11-22', shard: 1, paid_count: 1, paid_cents: 10 },
    { companyId: 'cmp_1', day: '2026-11-22', shard: 1, paid_count: 1, paid_cents: 20 },
  ]);
  assert.deepEqual(merged, [
    { companyId: 'cmp_1', day: '2026-11-22', shard: 1, paid_count: 2, paid_cents: 30 },
    { companyId: 'cmp_1', day: '2026-11-22', shard: 5, paid_count: 1 },
    { companyId: 'cmp_2', day: '2026-11-23', shard: 0, to_receive_cents: -500, received_cents: 500 },
  ]);
});
