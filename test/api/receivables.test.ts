/**
 * GET /v2/receivables (paging, filters, company isolation, bad queries), the
 * sandbox settle route, and the settlement worker: a line becomes PAID once
 * the São Paulo date reaches its expectedOn, exactly once however many
 * workers run.
 *
 * One app per engine. The listing data set belongs to the test company and is
 * dated November 2026; settle tests use companies of their own; worker tests
 * use companies of their own and March 2026 dates, so the worker (which pays
 * every due line of every company) never touches the listing data set.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidTaxId } from '../../src/lib/tax-id.js';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';
import { RECIPIENTS, SELLER_DOCUMENT, startTestApp, runWorker, workerStepsOf, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { boletoIntent, cnpj, pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;
type Res = { statusCode: number; json(): any; body: string; headers: Record<string, unknown> };

const [A, B] = RECIPIENTS as [string, string];

interface Seller {
  id: string;
  document: string;
  call: (opts: { method: 'GET' | 'POST'; url: string; payload?: Json }) => Promise<Res>;
}

let sellerCounter = 0;
/** Another company with its own key, in the same app. */
async function newSeller(t: TestApp, name: string): Promise<Seller> {
  const document = cnpj(`3344455500${String(++sellerCounter).padStart(2, '0')}`);
  assert.ok(isValidTaxId(document));
  const company = settled(await t.services.companies.createCompany(name, document));
  const { key } = settled(await t.services.companies.issueKey(company.id));
  return { id: company.id, document, call: (o) => t.call({ ...o, headers: { authorization: `Bearer ${key}` } }) };
}

function mainSeller(t: TestApp): Seller {
  return { id: t.companyId, document: SELLER_DOCUMENT, call: (o) => t.call(o) };
}

/** A sale created with confirm: true and paid in the sandbox at the clock's current time. */
async function paidSale(s: Seller, body: Json): Promise<Json> {
  const res = await s.call({ method: 'POST', url: '/v2/payment-intents', payload: { ...body, confirm: true } });
  assert.equal(res.statusCode, 201, res.body);
  const paid = await s.call({ method: 'POST', url: `/v2/sandbox/transactions/${res.json().transactionId}/pay` });
  assert.equal(paid.statusCode, 200, paid.body);
  assert.equal(paid.json().status, 'PAID');
  return paid.json();
}

async function list(s: Seller, query: string): Promise<{ data: Json[]; hasMore: boolean }> {
  const res = await s.call({ method: 'GET', url: `/v2/receivables${query ? `?${query}` : ''}` });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['data', 'hasMore']);
  return body;
}

/** Follows startingAfter to the end; returns every page. */
async function walk(s: Seller, query: string, limit: number): Promise<{ data: Json[]; hasMore: boolean }[]> {
  const pages: { data: Json[]; hasMore: boolean }[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (cursor) params.set('startingAfter', cursor);
    const page = await list(s, params.toString());
    pages.push(page);
    if (!page.hasMore) return pages;
    assert.equal(page.data.length, limit, 'a page with more after it is full');
    cursor = page.data.at(-1)!.id;
  }
  throw new Error('paging did not end');
}

async function getTransaction(s: Seller, id: string): Promise<Json> {
  const res = await s.call({ method: 'GET', url: `/v2/transactions/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function linesOf(t: TestApp, transactionId: string) {
  return t.db.db.selectFrom('receivables').selectAll().where('transaction_id', '=', transactionId).orderBy('position').execute();
}

const ids = (rows: Json[]) => rows.map((r) => r.id as string);
const sorted = (values: string[]) => [...values].sort();

for (const engine of engines()) {
  describe(`receivables on ${engine}`, () => {
    let t: TestApp;
    let main: Seller;
    let other: Seller;
    // The listing data set: four paid sales of the test company on four São Paulo days, S1 settled.
    let S1: Json, S2: Json, S3: Json, S4: Json, unpaid: Json;
    let otherSale: Json;
    let allIds: string[];

    before(async () => {
      t = await startTestApp(engine);
      main = mainSeller(t);
      other = await newSeller(t, 'Outra Loja Ltda');
      t.clock.set('2026-11-23T15:00:00.000Z'); // Monday
      S1 = await paidSale(main, pixIntent({ amountCents: 10_000, splitRules: [{ recipientDocument: A, type: 'PERCENTAGE', percentage: 10 }] }));
      t.clock.set('2026-11-24T15:00:00.000Z'); // Tuesday
      S2 = await paidSale(main, pixIntent({
        amountCents: 20_000,
        splitRules: [{ recipientDocument: A, type: 'PERCENTAGE', percentage: 10 }, { recipientDocument: B, type: 'FIXED', amountCents: 500 }],
      }));
      otherSale = await paidSale(other, pixIntent({ amountCents: 8_000, splitRules: [{ recipientDocument: A, type: 'PERCENTAGE', percentage: 50 }] }));
      t.clock.set('2026-11-25T15:00:00.000Z'); // Wednesday
      S3 = await paidSale(main, boletoIntent({ amountCents: 10_000 }));
      t.clock.set('2026-11-26T15:00:00.000Z'); // Thursday
      S4 = await paidSale(main, pixIntent({ amountCents: 5_000, splitRules: [{ recipientDocument: B, type: 'FIXED', amountCents: 100 }] }));
      unpaid = (await main.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true }) })).json().transaction;
      const settled = await main.call({ method: 'POST', url: `/v2/sandbox/transactions/${S1.id}/settle` });
      assert.equal(settled.statusCode, 200, settled.body);
      S1 = settled.json();
      S2 = await getTransaction(main, S2.id);
      const rows = await t.db.db.selectFrom('receivables').select('id').where('company_id', '=', t.companyId).execute();
      allIds = rows.map((r) => r.id);
      assert.equal(allIds.length, 2 + 3 + 1 + 2);
    });
    after(async () => {
      await t.close();
    });

    // ---- listing ------------------------------------------------------------

    test('the list shows every line of the company with its id and transactionId, as the transaction shows it', async () => {
      const page = await list(main, '');
      assert.equal(page.hasMore, false);
      assert.deepEqual(sorted(ids(page.data)), sorted(allIds));
      const byTransaction = new Map<string, Json[]>();
      for (const item of page.data) {
        assert.match(item.id, /^rcv_[0-9a-z]{26}$/);
        byTransaction.set(item.transactionId, [...(byTransaction.get(item.transactionId) ?? []), item]);
      }
      assert.deepEqual(sorted([...byTransaction.keys()]), sorted([S1.id, S2.id, S3.id, S4.id]));
      for (const trx of [S1, S2, S3, S4]) {
        const shown = (await getTransaction(main, trx.id)).split.receivables as Json[];
        const listed = byTransaction.get(trx.id)!.map(({ id: _id, transactionId: _t, ...line }) => line);
        assert.equal(listed.length, shown.length);
        for (const line of shown) assert.ok(listed.some((l) => JSON.stringify(l) === JSON.stringify(line)), `listed: ${JSON.stringify(line)}`);
      }
      // Newest first by id.
      assert.deepEqual(ids(page.data), [...ids(page.data)].sort().reverse());
    });

    test('paging with limit and startingAfter returns every line exactly once, hasMore until the last page', async () => {
      for (const limit of [1, 3, 7, 8, 100]) {
        const pages = await walk(main, '', limit);
        const seen = pages.flatMap((p) => ids(p.data));
        assert.equal(new Set(seen).size, seen.length, `no line twice (limit ${limit})`);
        assert.deepEqual(sorted(seen), sorted(allIds), `every line (limit ${limit})`);
        assert.deepEqual(seen, [...seen].sort().reverse(), 'newest first across pages');
        assert.deepEqual(pages.map((p) => p.hasMore), pages.map((_, i) => i < pages.length - 1));
        assert.equal(pages.length, Math.max(1, Math.ceil(allIds.length / limit)));
      }
      const three = await walk(main, '', 3);
      assert.deepEqual(three.map((p) => p.data.length), [3, 3, 2]);
      const last = [...allIds].sort()[0]!;
      assert.deepEqual(await list(main, `startingAfter=${last}`), { data: [], hasMore: false });
      assert.equal((await list(main, 'limit=7')).hasMore, true);
      assert.equal((await list(main, 'limit=8')).hasMore, false);
    });

    test('filter by status: PAID lines carry paidAt, PENDING ones do not', async () => {
      const paid = await list(main, 'status=PAID');
      assert.deepEqual(sorted(paid.data.map((l) => l.transactionId)), [S1.id, S1.id]);
      assert.ok(paid.data.every((l) => l.status === 'PAID' && l.paidAt === '2026-11-26T15:00:00.000Z'));
      const pending = await list(main, 'status=PENDING');
      assert.equal(pending.data.length, allIds.length - 2);
      assert.ok(pending.data.every((l) => l.status === 'PENDING' && !('paidAt' in l) && l.transactionId !== S1.id));
    });

    test('filter by recipientDocument', async () => {
      const a = await list(main, `recipientDocument=${A}`);
      assert.deepEqual(sorted(a.data.map((l) => l.transactionId)), sorted([S1.id, S2.id]));
      assert.ok(a.data.every((l) => l.recipientDocument === A && l.role === 'CUSTOM_SPLIT_RECIPIENT'));
      const b = await list(main, `recipientDocument=${B}`);
      assert.deepEqual(sorted(b.data.map((l) => l.transactionId)), sorted([S2.id, S4.id]));
      const seller = await list(main, `recipientDocument=${SELLER_DOCUMENT}`);
      assert.deepEqual(sorted(seller.data.map((l) => l.transactionId)), sorted([S1.id, S2.id, S3.id, S4.id]));
      assert.ok(seller.data.every((l) => l.role === 'SELLER'));
      assert.deepEqual(await list(main, 'recipientDocument=12345678909'), { data: [], hasMore: false });
      // Filtered paging: every seller line once.
      const pages = await walk(main, `recipientDocument=${SELLER_DOCUMENT}`, 3);
      assert.deepEqual(pages.map((p) => p.data.length), [3, 1]);
      assert.deepEqual(sorted(pages.flatMap((p) => ids(p.data))), sorted(ids(seller.data)));
    });

    test('filter by expectedOnFrom / expectedOnTo, both inclusive', async () => {
      // Paid Mon..Thu → due Tue 11-24 (S1), Wed 11-25 (S2), Thu 11-26 (S3), Fri 11-27 (S4).
      const trxOf = async (q: string) => sorted((await list(main, q)).data.map((l) => l.transactionId));
      assert.deepEqual(await trxOf('expectedOnFrom=2026-11-25'), sorted([S2.id, S2.id, S2.id, S3.id, S4.id, S4.id]));
      assert.deepEqual(await trxOf('expectedOnTo=2026-11-25'), sorted([S1.id, S1.id, S2.id, S2.id, S2.id]));
      assert.deepEqual(await trxOf('expectedOnFrom=2026-11-25&expectedOnTo=2026-11-25'), [S2.id, S2.id, S2.id]);
      assert.deepEqual(await trxOf('expectedOnFrom=2026-11-25&expectedOnTo=2026-11-26'), sorted([S2.id, S2.id, S2.id, S3.id]));
      assert.deepEqual(await trxOf('expectedOnFrom=2026-11-27&expectedOnTo=2026-11-24'), []);
      assert.deepEqual(await trxOf('expectedOnFrom=2026-11-28'), []);
      const fromThe26th = (await list(main, 'expectedOnFrom=2026-11-26')).data;
      assert.deepEqual(sorted(fromThe26th.map((l) => l.transactionId)), sorted([S3.id, S4.id, S4.id]), 'the lines due on 11-26 and 11-27');
      for (const l of fromThe26th) assert.ok(l.expectedOn >= '2026-11-26', l.expectedOn);
      // All filters at once.
      const one = await list(main, `recipientDocument=${B}&status=PENDING&expectedOnFrom=2026-11-26&expectedOnTo=2026-11-30`);
      assert.equal(one.data.length, 1);
      assert.equal(one.data[0]!.transactionId, S4.id);
      assert.equal(one.data[0]!.grossAmountCents, 100);
    });

    test('a bad query is 400 VALIDATION_ERROR naming the parameter', async () => {
      const bad: [string, string][] = [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=abc', 'limit'],
        [`startingAfter=${S1.id}`, 'startingAfter'], // a trx_ id, not rcv_
        ['startingAfter=abc', 'startingAfter'],
        ['expectedOnFrom=2026-13-01', 'expectedOnFrom'],
        ['expectedOnFrom=2026-02-30', 'expectedOnFrom'],
        ['expectedOnTo=24/11/2026', 'expectedOnTo'],
        ['expectedOnTo=2026-11-24T00:00:00Z', 'expectedOnTo'],
        ['recipientDocument=abc', 'recipientDocument'],
        ['recipientDocument=529.982.247-25', 'recipientDocument'],
        ['recipientDocument=5299822472', 'recipientDocument'], // 10 digits
        ['status=LATE', 'status'],
      ];
      for (const [query, field] of bad) {
        assertError(await main.call({ method: 'GET', url: `/v2/receivables?${query}` }), 400, 'VALIDATION_ERROR', field);
      }
    });

    test("another company's receivables are never listed, even for a shared recipient", async () => {
      const mine = await walk(main, '', 100);
      assert.ok(mine.flatMap((p) => p.data).every((l) => l.transactionId !== otherSale.id));
      const a = await list(main, `recipientDocument=${A}`);
      assert.ok(a.data.every((l) => l.transactionId !== otherSale.id));
      const theirs = await list(other, '');
      assert.deepEqual(sorted(theirs.data.map((l) => `${l.transactionId} ${l.recipientDocument} ${l.role}`)), sorted([
        `${otherSale.id} ${A} CUSTOM_SPLIT_RECIPIENT`,
        `${otherSale.id} ${other.document} SELLER`,
      ]));
      assert.deepEqual(await list(other, `recipientDocument=${SELLER_DOCUMENT}`), { data: [], hasMore: false });
      // A cursor from another company only bounds the ids; it reveals nothing.
      const cursor = ids(theirs.data).sort().at(-1)!;
      assert.ok((await list(main, `startingAfter=${cursor}&limit=100`)).data.every((l) => l.transactionId !== otherSale.id));
      // Nor can the other company settle or read this company's transaction.
      assertError(await other.call({ method: 'POST', url: `/v2/sandbox/transactions/${S2.id}/settle` }), 404, 'NOT_FOUND');
      assert.ok((await linesOf(t, S2.id)).every((l) => l.status === 'PENDING'));
    });

    // ---- sandbox settle -------------------------------------------------------

    test('sandbox settle pays every line of a PAID transaction at once (200, paidAt = now); again changes nothing', async () => {
      const s = await newSeller(t, 'Loja Settle Ltda');
      t.clock.set('2026-11-23T15:00:00.000Z');
      const sale = await paidSale(s, pixIntent({
        amountCents: 30_000,
        splitRules: [{ recipientDocument: A, type: 'PERCENTAGE', percentage: 25 }, { recipientDocument: B, type: 'FIXED', amountCents: 1_000 }],
      }));
      assert.ok(sale.split.receivables.every((l: Json) => l.status === 'PENDING' && !('paidAt' in l)));
      t.clock.advance(3_600_000);
      const settledAt = t.clock.now().toISOString();
      const res = await s.call({ method: 'POST', url: `/v2/sandbox/transactions/${sale.id}/settle` });
      assert.equal(res.statusCode, 200, res.body);
      const settled = res.json();
      assert.equal(settled.status, 'PAID');
      assert.equal(settled.split.receivables.length, 3);
      assert.deepEqual(
        settled.split.receivables,
        sale.split.receivables.map((l: Json) => ({ ...l, status: 'PAID', paidAt: settledAt })),
      );
      assert.deepEqual(await getTransaction(s, sale.id), settled);
      const rows = await linesOf(t, sale.id);
      assert.ok(rows.every((r) => r.status === 'PAID' && r.paid_at?.toISOString() === settledAt));

      t.clock.advance(60_000);
      const again = await s.call({ method: 'POST', url: `/v2/sandbox/transactions/${sale.id}/settle` });
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json(), settled, 'a second settle keeps the first paidAt');
      const listed = await list(s, 'status=PAID');
      assert.deepEqual(sorted(listed.data.map((l) => l.paidAt)), [settledAt, settledAt, settledAt]);
    });

    test('sandbox settle of a PENDING or CANCELED transaction is 409 TRANSACTION_NOT_PENDING; unknown is 404', async () => {
      const s = await newSeller(t, 'Loja Pendente Ltda');
      t.clock.set('2026-11-23T15:00:00.000Z');
      const pending = (await s.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true, splitRules: [{ recipientDocument: A, type: 'FIXED', amountCents: 10 }] }) })).json().transaction;
      assertError(await s.call({ method: 'POST', url: `/v2/sandbox/transactions/${pending.id}/settle` }), 409, 'TRANSACTION_NOT_PENDING');
      const still = await getTransaction(s, pending.id);
      assert.equal(still.status, 'PENDING');
      assert.deepEqual(still.split, { receivables: [] });
      assert.equal((await linesOf(t, pending.id)).length, 0);

      const canceled = (await s.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true }) })).json().transaction;
      assert.equal((await s.call({ method: 'POST', url: `/v2/sandbox/transactions/${canceled.id}/fail` })).statusCode, 200);
      assertError(await s.call({ method: 'POST', url: `/v2/sandbox/transactions/${canceled.id}/settle` }), 409, 'TRANSACTION_NOT_PENDING');

      assertError(await s.call({ method: 'POST', url: `/v2/sandbox/transactions/trx_${'0'.repeat(26)}/settle` }), 404, 'NOT_FOUND');
      assertError(await main.call({ method: 'POST', url: `/v2/sandbox/transactions/${unpaid.id}/settle` }), 409, 'TRANSACTION_NOT_PENDING');
    });

    // ---- settlement worker ----------------------------------------------------

    test('the worker pays a line only once the São Paulo date reaches expectedOn, with paidAt = now', async () => {
      const s = await newSeller(t, 'Loja Worker Ltda');
      const steps = workerStepsOf(t);
      t.clock.set('2026-03-02T15:00:00.000Z'); // Monday 12:00 in São Paulo → due Tuesday 03-03
      const first = await paidSale(s, pixIntent({ splitRules: [{ recipientDocument: A, type: 'PERCENTAGE', percentage: 10 }, { recipientDocument: B, type: 'FIXED', amountCents: 100 }] }));
      t.clock.set('2026-03-02T18:00:00.000Z'); // still Monday → due Tuesday too
      const second = await paidSale(s, pixIntent({ splitRules: [{ recipientDocument: B, type: 'PERCENTAGE', percentage: 50 }] }));
      t.clock.set('2026-03-05T15:00:00.000Z'); // Thursday → due Friday 03-06
      const later = await paidSale(s, boletoIntent({ splitRules: [{ recipientDocument: A, type: 'FIXED', amountCents: 1_000 }] }));
      assert.ok(first.split.receivables.every((l: Json) => l.expectedOn === '2026-03-03'));
      assert.ok(later.split.receivables.every((l: Json) => l.expectedOn === '2026-03-06'));

      const statuses = async (trx: Json) => (await linesOf(t, trx.id)).map((r) => r.status);
      // 03-03 02:59:59.999Z is 23:59:59.999 of Monday 03-02 in São Paulo (UTC−3): nothing is due yet.
      for (const at of ['2026-03-02T23:00:00.000Z', '2026-03-03T02:59:59.999Z']) {
        t.clock.set(at);
        assert.equal(await t.services.receivables.settleDue(), 0, at);
        await runWorker(t, steps);
        assert.deepEqual(await statuses(first), ['PENDING', 'PENDING', 'PENDING'], at);
      }
      // 03:00Z is midnight of Tuesday 03-03 in São Paulo: the worker loop pays the lines due that day, only those.
      t.clock.set('2026-03-03T03:00:00.000Z');
      await runWorker(t, steps);
      for (const trx of [first, second]) {
        const view = await getTransaction(s, trx.id);
        assert.ok(view.split.receivables.length > 0);
        for (const l of view.split.receivables) {
          assert.equal(l.status, 'PAID');
          assert.equal(l.paidAt, '2026-03-03T03:00:00.000Z');
          assert.equal(l.expectedOn, '2026-03-03');
        }
      }
      assert.deepEqual(await statuses(later), ['PENDING', 'PENDING']);
      assert.equal(await t.services.receivables.settleDue(), 0, 'nothing left due on 03-03');

      t.clock.set('2026-03-06T02:59:59.999Z');
      assert.equal(await t.services.receivables.settleDue(), 0);
      t.clock.set('2026-03-06T12:00:00.000Z'); // well into the day: the worker may run late, the line is still paid
      assert.equal(await t.services.receivables.settleDue(), 2);
      const rows = await linesOf(t, later.id);
      assert.ok(rows.every((r) => r.status === 'PAID' && r.paid_at?.toISOString() === '2026-03-06T12:00:00.000Z'));
      // The transaction itself is untouched by the transfer.
      assert.equal((await getTransaction(s, later.id)).status, 'PAID');
    });

    test('8 concurrent settlement runs pay every due line exactly once; a further run pays nothing', async () => {
      const s = await newSeller(t, 'Loja Concorrente Ltda');
      t.clock.set('2026-03-10T15:00:00.000Z'); // Tuesday → due Wednesday 03-11
      const rules = [
        { recipientDocument: A, type: 'PERCENTAGE', percentage: 10 },
        { recipientDocument: B, type: 'FIXED', amountCents: 200 },
      ];
      const sales: Json[] = [];
      for (let i = 0; i < 8; i++) sales.push(await paidSale(s, pixIntent({ amountCents: 10_000 + i, referenceId: `c-${i}`, splitRules: rules })));
      const lineIds = (await Promise.all(sales.map((sale) => linesOf(t, sale.id)))).flat().map((r) => r.id);
      assert.equal(lineIds.length, 8 * 3);
      // Nothing else in this database is due by 03-11 and still PENDING.
      const due = await t.db.db.selectFrom('receivables').select('id').where('status', '=', 'PENDING').where('expected_on', '<=', '2026-03-11').execute();
      assert.deepEqual(sorted(due.map((r) => r.id)), sorted(lineIds));

      t.clock.set('2026-03-11T03:00:00.000Z');
      const counts = await Promise.all(Array.from({ length: 8 }, () => t.services.receivables.settleDue()));
      assert.equal(counts.reduce((a, b) => a + b, 0), lineIds.length, `counts ${counts.join(',')}`);
      const rows = await t.db.db.selectFrom('receivables').selectAll().where('id', 'in', lineIds).execute();
      assert.equal(rows.length, lineIds.length);
      for (const r of rows) {
        assert.equal(r.status, 'PAID');
        assert.equal(r.paid_at?.toISOString(), '2026-03-11T03:00:00.000Z');
      }
      t.clock.advance(3_600_000);
      assert.equal(await t.services.receivables.settleDue(), 0);
      const unchanged = await t.db.db.selectFrom('receivables').select('paid_at').where('id', 'in', lineIds).execute();
      assert.ok(unchanged.every((r) => r.paid_at?.toISOString() === '2026-03-11T03:00:00.000Z'));
    });
  });
}
