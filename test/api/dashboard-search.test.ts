/**
 * The dashboard's transactions: the search box by each kind of key, each
 * filter, keyset paging, and the CSV export compared row by row with the
 * list of the same selection (RFC 4180 quoting, formula cells neutralised).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv } from '../helpers/csv.js';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';
import { startDashboardApp, type DashboardTestApp } from '../helpers/dashboard.js';
import { assertError } from '../helpers/assert.js';
import { CompiledQuery, sql } from 'kysely';
import { searchConditions } from '../../src/modules/transactions/repo.js';
import type { SearchKeys } from '../../src/modules/transactions/search.js';
import { BUYER, boletoIntent, cnpj, cpf, pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const JOAO = { name: 'João Conceição Araújo', document: cpf('123456789'), email: 'Joao.Araujo@Example.com' };
const OMEGA = { ...BUYER, name: 'Empresa Ômega Ltda', document: cnpj('112223330001'), email: 'financeiro@omega.example' };
const MARIA_JOSE = { name: 'MARIA José Souza', document: cpf('987654321') };
const FORMULA = { name: '=HYPERLINK("http://x.example","click")', document: cpf('111444777'), email: 'x@formula.example' };
const QUOTED = { name: 'Silva, "Zé"\nde Souza', document: cpf('222555888') };

/** A CPF or CNPJ as people type it. */
const punctuated = (doc: string) =>
  doc.length === 11 ? `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}` : `${doc.slice(0, 2)}.${doc.slice(2, 5)}.${doc.slice(5, 8)}/${doc.slice(8, 12)}-${doc.slice(12)}`;

for (const engine of engines()) {
  describe(`dashboard transactions on ${engine}`, () => {
    let t: DashboardTestApp;
    const made: Record<string, Json> = {};
    let linkId: string;

    async function sale(name: string, body: Json, pay = false) {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: { ...body, confirm: true } });
      assert.equal(res.statusCode, 201, res.body);
      made[name] = res.json().transaction;
      if (pay) assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${made[name]!.id}/pay` })).statusCode, 200);
      t.clock.advance(2 * 3_600_000); // two hours between sales: four on the 20th in São Paulo, two on the 21st
    }

    async function list(query: Record<string, string | number>): Promise<Json> {
      const res = await t.dash({ method: 'GET', url: '/transactions', query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    }
    const ids = async (query: Record<string, string | number>) => (await list({ limit: 100, ...query })).data.map((x: Json) => x.id);
    const named = (...names: string[]) => names.map((n) => made[n]!.id);

    before(async () => {
      t = await startDashboardApp(engine);
      t.clock.set(new Date('2026-11-20T20:00:00.000Z')); // 17:00 in São Paulo
      await sale('joao', pixIntent({ buyer: JOAO, referenceId: 'pedido-1' }));
      await sale('maria', pixIntent({ referenceId: 'pedido-2' }), true);
      await sale('omega', boletoIntent({ buyer: OMEGA, referenceId: 'pedido-3' }));
      await sale('mariaJose', pixIntent({ buyer: MARIA_JOSE, referenceId: 'pedido-4' }));
      await sale('formula', pixIntent({ buyer: FORMULA, referenceId: '+55 cmd|calc', description: '@SUM(1)' }), true);
      await sale('quoted', pixIntent({ buyer: QUOTED, referenceId: 'pedido,6' }));
      const link = await t.call({ method: 'POST', url: '/v2/payment-links', payload: { amountCents: 10_000, description: 'Camiseta', paymentMethods: ['PIX'] } });
      linkId = link.json().id;
      // A sale through the link's page is the payment-links tests' business; here only the column the filter reads matters.
      await t.db.db.updateTable('transactions').set({ payment_link_id: linkId }).where('id', '=', made.omega!.id).execute();
    });
    after(async () => {
      await t.close();
    });

    test('the list is the API view with paidAt, newest first; paging by cursor walks every row once', async () => {
      const all = await ids({});
      assert.deepEqual(all, named('quoted', 'formula', 'mariaJose', 'omega', 'maria', 'joao'));
      const paid = (await list({ q: made.maria!.id })).data[0];
      assert.equal(paid.paidAt, '2026-11-20T22:00:00.000Z');
      assert.deepEqual(paid, (await t.call({ method: 'GET', url: `/v2/transactions/${made.maria!.id}` })).json());
      assert.equal((await list({ q: made.joao!.id })).data[0].paidAt, null);
      const walked: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await list({ limit: 4, ...(cursor ? { cursor } : {}) });
        walked.push(...page.data.map((x: Json) => x.id));
        if (!page.hasMore) {
          assert.equal(page.nextCursor, null);
          break;
        }
        cursor = page.nextCursor;
        assert.equal(cursor, page.data.at(-1).id);
      }
      assert.deepEqual(walked, all);
    });

    test('search by trx_ id, pi_ id and referenceId', async () => {
      assert.deepEqual(await ids({ q: made.omega!.id }), named('omega'));
      assert.deepEqual(await ids({ q: ` ${made.joao!.paymentIntentId} ` }), named('joao'));
      assert.deepEqual(await ids({ q: 'pedido-4' }), named('mariaJose'));
      assert.deepEqual(await ids({ q: 'pedido,6' }), named('quoted'));
      assert.deepEqual(await ids({ q: 'trx_00000000000000000000000000' }), []);
    });

    test("search by the buyer's CPF or CNPJ, with or without punctuation, and by e-mail whatever its case", async () => {
      assert.deepEqual(await ids({ q: JOAO.document }), named('joao'));
      assert.deepEqual(await ids({ q: punctuated(JOAO.document) }), named('joao'));
      assert.deepEqual(await ids({ q: OMEGA.document }), named('omega'));
      assert.deepEqual(await ids({ q: punctuated(OMEGA.document) }), named('omega'));
      assert.deepEqual(await ids({ q: BUYER.document }), named('maria'));
      assert.deepEqual(await ids({ q: 'JOAO.ARAUJO@example.COM' }), named('joao'));
      assert.deepEqual(await ids({ q: 'financeiro@omega.example' }), named('omega'));
      assert.deepEqual(await ids({ q: 'financeiro@omega' }), [], 'an e-mail is matched whole');
    });

    test("search by words of the buyer's name: each the start of a word, accents and case ignored", async () => {
      assert.deepEqual(await ids({ q: 'maria' }), named('mariaJose', 'maria'));
      assert.deepEqual(await ids({ q: 'MARIA jose' }), named('mariaJose'));
      assert.deepEqual(await ids({ q: 'mar sil' }), named('maria'));
      assert.deepEqual(await ids({ q: 'joao conceicao' }), named('joao'));
      assert.deepEqual(await ids({ q: 'CONCEIÇÃO Araú' }), named('joao'));
      assert.deepEqual(await ids({ q: 'omega' }), named('omega'));
      assert.deepEqual(await ids({ q: 'Ômega' }), named('omega'));
      assert.deepEqual(await ids({ q: 'ria' }), [], 'a word matches from its start');
      assert.deepEqual(await ids({ q: 'silva joaquim' }), [], 'every word must match');
      assert.deepEqual(await ids({ q: "maria:* | (!') --" }), named('mariaJose', 'maria'), 'only the words of a text are searched');
      assert.deepEqual(await ids({ q: '   ' }), await ids({}), 'an empty search selects everything');
    });

    test('filters: status, paymentMethod, from/to São Paulo dates, paymentLinkId, and with a search', async () => {
      assert.deepEqual(await ids({ status: 'PAID' }), named('formula', 'maria'));
      assert.deepEqual(await ids({ paymentMethod: 'BOLETO' }), named('omega'));
      // 17:00, 19:00, 21:00 and 23:00 in São Paulo on the 20th, then 01:00 and 03:00 on the 21st.
      assert.deepEqual(await ids({ to: '2026-11-20' }), named('mariaJose', 'omega', 'maria', 'joao'));
      assert.deepEqual(await ids({ from: '2026-11-21' }), named('quoted', 'formula'));
      assert.deepEqual(await ids({ from: '2026-11-21', to: '2026-11-21' }), named('quoted', 'formula'));
      assert.deepEqual(await ids({ paymentLinkId: linkId }), named('omega'));
      assert.deepEqual(await ids({ q: 'maria', status: 'PAID' }), named('maria'));
      assert.deepEqual(await ids({ q: 'maria', to: '2026-11-20', limit: 1 }), named('mariaJose'));
      assertError(await t.dash({ method: 'GET', url: '/transactions', query: { from: '2026-02-30' } }), 400, 'VALIDATION_ERROR', 'from');
      assertError(await t.dash({ method: 'GET', url: '/transactions', query: { status: 'PAGO' } }), 400, 'VALIDATION_ERROR', 'status');
      assertError(await t.dash({ method: 'GET', url: '/transactions', query: { q: 'x'.repeat(201) } }), 400, 'VALIDATION_ERROR', 'q');
    });

    test('each kind of key is answered by its index (the query matches the index expressions of migration 016)', async () => {
      const plan = (keys: SearchKeys) =>
        t.db.db.transaction().execute(async (trx) => {
          // A few rows are read faster without an index: the planner is told not to scan, so the plan shows the index it can use.
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          const [condition] = searchConditions(keys);
          const query = condition!(trx.selectFrom('transactions')).select('id').compile();
          const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]));
          return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
        });
      assert.match(await plan({ nameWords: ['joao', 'conc'] }), /transactions_name_prefixes/);
      assert.match(await plan({ document: JOAO.document }), /transactions_company_document/);
      assert.match(await plan({ email: 'joao.araujo@example.com' }), /transactions_company_email/);
      assert.match(await plan({ referenceId: 'pedido-1' }), /transactions_company_reference/);
      assert.match(await plan({ paymentIntentId: made.joao!.paymentIntentId }), /transactions_payment_intent_id_key/);
    });

    test('another company sees none of these sales, whatever it searches', async () => {
      const other = settled(await t.services.companies.createCompany('Outra Loja Ltda', '00000000000191'));
      t.as('admin', other.id);
      try {
        assert.deepEqual(await ids({}), []);
        assert.deepEqual(await ids({ q: made.joao!.id }), []);
        assert.deepEqual(await ids({ q: 'maria' }), []);
        assertError(await t.dash({ method: 'GET', url: `/transactions/${made.joao!.id}` }), 404, 'NOT_FOUND');
        const csv = await t.dash({ method: 'GET', url: '/transactions.csv', query: { format: 'rfc4180' } });
        assert.equal(parseCsv(csv.body).length, 1, 'only the header');
      } finally {
        t.as('admin');
      }
    });

    test('the CSV export (its rfc4180 form) is the selection of the list, row by row, every row (not one page)', async () => {
      for (const query of [{}, { q: 'maria' }, { status: 'PAID' }, { from: '2026-11-21' }, { paymentMethod: 'PIX', q: 'pedido-2' }] as Record<string, string>[]) {
        const res = await t.dash({ method: 'GET', url: '/transactions.csv', query: { ...query, format: 'rfc4180' } });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
        assert.match(String(res.headers['content-disposition']), /^attachment; filename="transactions-[a-z0-9-]+\.csv"$/);
        const [header, ...rows] = parseCsv(res.body);
        assert.deepEqual(header, ['id', 'createdAt', 'paidAt', 'status', 'paymentMethod', 'installments', 'amountCents', 'feeCents', 'netAmountCents', 'refundedCents', 'referenceId', 'buyerName', 'buyerDocument', 'buyerEmail', 'paymentLinkId']);
        const listed = (await list({ limit: 100, ...query })).data;
        assert.equal(rows.length, listed.length, JSON.stringify(query));
        rows.forEach((row, i) => {
          const x = listed[i];
          const neutral = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
          assert.deepEqual(row, [
            x.id,
            x.createdAt,
            x.paidAt ?? '',
            x.status,
            x.paymentMethod,
            String(x.installments),
            String(x.amountCents),
            String(x.feeCents),
            String(x.netAmountCents),
            String(x.refundedCents),
            neutral(x.referenceId),
            neutral(x.buyer.name),
            x.buyer.document,
            x.buyer.email ?? '',
            x.paymentLinkId ?? '',
          ]);
        });
      }
      const all = await t.dash({ method: 'GET', url: '/transactions.csv', query: { format: 'rfc4180' } });
      assert.equal(parseCsv(all.body).length, 1 + 6);
      // Formula-like cells are quoted with a leading quote; a comma, a quote and a newline are quoted and doubled.
      assert.ok(all.body.includes(`"'=HYPERLINK(""http://x.example"",""click"")"`), all.body);
      assert.ok(all.body.includes(`"'+55 cmd|calc"`));
      assert.ok(all.body.includes(`"Silva, ""Zé""\nde Souza"`));
      assert.ok(all.body.includes(`"pedido,6"`));
      assert.ok(all.body.includes('\r\n') && !/[^\r]\n(?!de Souza)/.test(all.body), 'lines end in CRLF');
    });

    test("a name older than the newest 2,000 rows is found through the index; a common one pages from the newest", async () => {
      const other = settled(await t.services.companies.createCompany('Loja Grande Ltda', cnpj('998877660001')));
      // 2,101 sales of one buyer name, the oldest of another: made by SQL, as the bench makes its million.
      const at = (g: number) => `timestamptz '2026-11-01T00:00:00Z' + ${g} * interval '1 minute'`;
      const buyer = `jsonb_build_object('name', CASE WHEN g = 1 THEN 'Zuleide Raríssima' ELSE 'Cliente Comum' END, 'document', lpad((20000000000 + g)::text, 11, '0'))`;
      const pad = (prefix: string) => `'${prefix}_' || lpad(g::text, 26, '0')`;
      await sql
        .raw(
          `INSERT INTO payment_intents (id, company_id, status, amount_cents, payment_method, installments, reference_id, buyer, expires_at, transaction_id, created_at, updated_at)
           SELECT ${pad('pi')}, '${other.id}', 'SUCCEEDED', 1000, 'PIX', 1, 'big-' || g, ${buyer}, ${at(0)}, ${pad('trx')}, ${at(0)}, ${at(0)} FROM generate_series(1, 2101) AS g`,
        )
        .execute(t.db.db);
      await sql
        .raw(
          `INSERT INTO transactions (id, company_id, payment_intent_id, status, payment_method, installments, amount_cents, fee_cents, net_amount_cents, reference_id, buyer, payment_details, created_at, updated_at)
           SELECT ${pad('trx')}, '${other.id}', ${pad('pi')}, 'PENDING', 'PIX', 1, 1000, 0, 0, 'big-' || g, ${buyer}, '{}'::jsonb, ${at(0)}, ${at(0)} FROM generate_series(1, 2101) AS g`,
        )
        .execute(t.db.db);
      t.as('admin', other.id);
      try {
        const oldest = `trx_${'1'.padStart(26, '0')}`;
        assert.deepEqual(await ids({ q: 'zul RARI' }), [oldest]);
        assert.deepEqual(await ids({ q: 'Raríssima', limit: 1 }), [oldest]);
        const first = await list({ q: 'cliente com', limit: 3 });
        assert.deepEqual(first.data.map((x: Json) => x.id), [2101, 2100, 2099].map((g) => `trx_${String(g).padStart(26, '0')}`));
        assert.equal(first.hasMore, true);
        const next = await list({ q: 'cliente com', limit: 3, cursor: first.nextCursor });
        assert.deepEqual(next.data.map((x: Json) => x.id), [2098, 2097, 2096].map((g) => `trx_${String(g).padStart(26, '0')}`));
        const near = await list({ q: 'comum', limit: 3, cursor: `trx_${'4'.padStart(26, '0')}` });
        assert.deepEqual(near.data.map((x: Json) => x.id), [3, 2].map((g) => `trx_${String(g).padStart(26, '0')}`), 'past the newest 2,000: through the index');
        assert.equal(near.hasMore, false);
        assert.deepEqual(await ids({ q: 'inexistente' }), []);
      } finally {
        t.as('admin');
      }
    });

    test('the receivables list has totals and its CSV every line the filters select', async () => {
      const res = await t.dash({ method: 'GET', url: '/receivables', query: { limit: '1' } });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.data.length, 1);
      assert.equal(body.hasMore, true);
      const lines = await t.db.db.selectFrom('receivables').selectAll().where('company_id', '=', t.companyId).execute();
      const sum = (status: string) => lines.filter((l) => l.status === status).reduce((s, l) => s + l.amount_cents, 0);
      assert.deepEqual(body.totals, { amount: sum('PENDING') + sum('PAID'), byStatus: { PENDING: sum('PENDING'), PAID: sum('PAID') } });
      const csv = await t.dash({ method: 'GET', url: '/receivables.csv', query: { status: 'PENDING', format: 'rfc4180' } });
      const [header, ...rows] = parseCsv(csv.body);
      assert.equal(header![0], 'id');
      assert.deepEqual(rows.map((r) => r[0]).sort(), lines.filter((l) => l.status === 'PENDING').map((l) => l.id).sort());
      assert.deepEqual(
        rows.map((r) => Number(r[header!.indexOf('amountCents')])).reduce((a, b) => a + b, 0),
        sum('PENDING'),
      );
    });
  });
}
