/**
 * The dashboard's money side (issue 35): the home page's sums read from the
 * daily totals (migration 022) stay exact — after payments, partial and full
 * refunds, a chargeback, settlements, on both sides of São Paulo midnight and
 * of a month's end, they equal a direct computation over the transactions and
 * receivables, and the migration's backfill gives the same rows; and
 * Recebíveis by expected date with each line's installment count.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { BACKFILL_DAILY_TOTALS } from '../../src/db/migrations/022-daily-totals.js';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '../../src/lib/sao-paulo-date.js';
import { engines } from '../helpers/db.js';
import { runWorkerStep, tokenizeCard } from '../helpers/app.js';
import { startDashboardApp, type DashboardTestApp } from '../helpers/dashboard.js';
import { cardIntent, pct, pixIntent } from '../helpers/fixtures.js';
import { RECIPIENTS } from '../helpers/app.js';

type Json = Record<string, any>;

for (const engine of engines()) {
  describe(`the dashboard's money side on ${engine}`, () => {
    let t: DashboardTestApp;
    before(async () => {
      t = await startDashboardApp(engine);
    });
    after(() => t.close());

    const pixSale = async (amountCents: number): Promise<string> => {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true, amountCents, referenceId: `pix-${randomUUID()}` }) });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().transaction.id;
    };
    const pay = async (id: string) => assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${id}/pay` })).statusCode, 200);
    const cardSale = async (overrides: Json): Promise<string> => {
      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ referenceId: `card-${randomUUID()}`, ...overrides }) });
      assert.equal(created.statusCode, 201, created.body);
      const { token } = await tokenizeCard(t, created.json().cardTokenization);
      const res = await t.call({ method: 'POST', url: `/v2/payment-intents/${created.json().id}/confirm`, headers: { 'idempotency-key': randomUUID() }, payload: { token } });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().status, 'PAID');
      return res.json().id;
    };
    const refund = async (id: string, amountCents?: number) => {
      const res = await t.call({
        method: 'POST',
        url: `/v2/transactions/${id}/refunds`,
        headers: { 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
        payload: JSON.stringify(amountCents ? { amountCents } : {}),
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().status, 'SUCCEEDED');
    };
    const home = async (): Promise<Json> => {
      const res = await t.dash({ method: 'GET', url: '/home' });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };

    /** What the home page must say, computed from the rows themselves (no daily totals). */
    async function direct(): Promise<Json> {
      const today = saoPauloDate(t.clock.now());
      const first = addDays(today, -29);
      const month = `${today.slice(0, 8)}01`;
      const rows = await t.db.db.selectFrom('transactions').selectAll().where('company_id', '=', t.companyId).execute();
      const lines = await t.db.db.selectFrom('receivables').selectAll().where('company_id', '=', t.companyId).execute();
      const paidOn = (r: (typeof rows)[number]) => (r.paid_at ? saoPauloDate(r.paid_at) : '');
      const inWindow = rows.filter((r) => paidOn(r) >= first && paidOn(r) <= today);
      const tally = <T>(list: T[], amount: (r: T) => number) => ({ count: list.length, amount: list.reduce((s, r) => s + amount(r), 0) });
      const pending = rows.filter((r) => r.status === 'PENDING' && r.created_at >= startOfSaoPauloDay(first));
      const byDate = new Map<string, number>();
      for (const l of lines.filter((l) => l.status === 'PENDING')) byDate.set(l.expected_on, (byDate.get(l.expected_on) ?? 0) + l.amount_cents);
      const received = lines.filter((l) => l.status === 'PAID');
      return {
        today: tally(inWindow.filter((r) => paidOn(r) === today), (r) => r.amount_cents),
        last30Days: tally(inWindow, (r) => r.amount_cents),
        pending: tally(pending, (r) => r.amount_cents),
        refunded: tally(inWindow.filter((r) => r.refunded_cents > 0), (r) => r.refunded_cents),
        chargedBack: tally(inWindow.filter((r) => r.charged_back_at !== null), (r) => r.charged_back_cents),
        receivables: {
          toReceive: [...byDate.values()].reduce((s, a) => s + a, 0),
          paid: received.reduce((s, l) => s + l.amount_cents, 0),
          receivedThisMonth: received.filter((l) => saoPauloDate(l.paid_at!) >= month).reduce((s, l) => s + l.amount_cents, 0),
          next: [...byDate.entries()]
            .filter(([, amount]) => amount !== 0)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .slice(0, 5)
            .map(([date, amount]) => ({ date, amount })),
        },
        fees: { thisMonth: rows.filter((r) => paidOn(r) >= month && paidOn(r) <= today).reduce((s, r) => s + r.fee_cents, 0) },
        daily: Array.from({ length: 30 }, (_, i) => addDays(first, i)).map((date) => ({ date, amount: rows.filter((r) => paidOn(r) === date).reduce((s, r) => s + r.amount_cents, 0) })),
      };
    }

    async function assertExact(when: string): Promise<Json> {
      const shown = await home();
      assert.deepEqual(shown, await direct(), `home() against the rows, ${when}`);
      return shown;
    }

    test("home()'s sums equal the rows' after payments, partial refunds and a chargeback across São Paulo midnight and a month's end; the backfill gives the same", async () => {
      const [A] = RECIPIENTS as [string];
      // 2026-11-21 09:00 in São Paulo.
      const morning = await pixSale(10_000);
      await pay(morning);
      const installments = await cardSale({ amountCents: 30_000, installments: 3, splitRules: [pct(A, 40)] });
      await pixSale(4_200); // stays PENDING
      await refund(morning, 2_500);
      await assertExact('after the first sales');

      // 23:59:30 on the 21st, then 00:00:30 on the 22nd, São Paulo time (02:59:30 and 03:00:30 UTC).
      t.clock.set('2026-11-22T02:59:30.000Z');
      const lateNight = await cardSale({ amountCents: 12_345 });
      const lateRefund = await pixSale(7_777);
      await pay(lateRefund);
      t.clock.set('2026-11-22T03:00:30.000Z');
      assert.equal(saoPauloDate(t.clock.now()), '2026-11-22');
      const afterMidnight = await pixSale(5_555);
      await pay(afterMidnight);
      await refund(lateRefund, 1_000); // a partial refund today of a sale paid yesterday
      await refund(lateRefund, 500); // a second: the sale is counted once
      assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${lateNight}/chargeback` })).statusCode, 200);
      await refund(installments, 3_000);
      const midnight = await assertExact('across São Paulo midnight');
      assert.deepEqual(midnight.today, { count: 1, amount: 5_555 });
      assert.deepEqual(midnight.refunded.count, 3);
      assert.deepEqual(midnight.chargedBack, { count: 1, amount: 12_345 });
      assert.ok(midnight.fees.thisMonth > 0);

      // The Pix lines of the 21st are due the next business day: the worker settles them.
      t.clock.set('2026-11-23T12:00:00.000Z');
      await runWorkerStep(t, 'settle-receivables');
      const settled = await assertExact('after the settlement worker');
      assert.ok(settled.receivables.paid > 0 && settled.receivables.receivedThisMonth === settled.receivables.paid);
      await refund(morning); // the rest of it, once its lines were paid out: negative adjustment lines
      assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${afterMidnight}/settle` })).statusCode, 200);
      await assertExact('after a full refund of a settled sale and a sandbox settlement');

      // December: the month's fees and receipts start again; the 30 days still hold November's sales.
      t.clock.set('2026-12-01T03:30:00.000Z');
      const december = await pixSale(8_000);
      await pay(december);
      await runWorkerStep(t, 'settle-receivables');
      const dec = await assertExact('in a new month');
      assert.equal(dec.fees.thisMonth, (await t.db.db.selectFrom('transactions').select('fee_cents').where('id', '=', december).executeTakeFirstOrThrow()).fee_cents);
      assert.ok(dec.last30Days.count >= 5);

      // The migration's backfill, from the rows alone, gives what the writes kept.
      const kept = await home();
      await t.db.db.deleteFrom('daily_totals').execute();
      await sql.raw(BACKFILL_DAILY_TOTALS).execute(t.db.db);
      assert.deepEqual(await home(), kept);
    });

    test('Recebíveis: by expected date, earliest first, paged by cursor, each line with its installment number and count', async () => {
      const id = await cardSale({ amountCents: 9_000, installments: 3 });
      const all: Json[] = [];
      let cursor: string | undefined;
      do {
        const res = await t.dash({ method: 'GET', url: `/receivables?limit=2${cursor ? `&cursor=${cursor}` : ''}` });
        assert.equal(res.statusCode, 200, res.body);
        all.push(...res.json().data);
        cursor = res.json().nextCursor ?? undefined;
      } while (cursor);
      const total = await t.db.db.selectFrom('receivables').select((eb) => eb.fn.countAll<number>().as('n')).where('company_id', '=', t.companyId).executeTakeFirstOrThrow();
      assert.equal(all.length, Number(total.n), 'every line once');
      const keys = all.map((r) => `${r.expectedOn} ${r.id}`);
      assert.deepEqual(keys, [...keys].sort(), 'by expected date, then id');
      const mine = all.filter((r) => r.transactionId === id);
      assert.deepEqual(
        mine.map((r) => [r.installment, r.installmentCount]),
        [
          [1, 3],
          [2, 3],
          [3, 3],
        ],
      );
      for (const r of mine) assert.equal(r.grossAmountCents, r.feeCents + r.amountCents);
      const pending = (await t.dash({ method: 'GET', url: '/receivables?status=PENDING&limit=100' })).json().data as Json[];
      assert.ok(pending.every((r) => r.status === 'PENDING'));
      assert.deepEqual(
        pending.map((r) => r.expectedOn),
        pending.map((r) => r.expectedOn).sort(),
      );
    });
  });
}
