/**
 * E2E over real HTTP against `svc serve`: a Pix sale split three ways, every
 * receivable line checked against figures computed by hand below, then the
 * sandbox settle and the receivables list of one recipient.
 *
 * The third recipient is created and approved with the operator CLI
 * (`svc account create/approve --json`) on the deployment before the server's
 * first start, which works the same on PGlite (one process at a time) and on
 * PostgreSQL; the first start then adds the demo company and its two accounts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createDeployment, runCli, startServer, type Deployment, type TestServer } from '../helpers/server.js';
import { BUYER } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const SELLER = '11222333000181'; // the demo company (Loja Demo Ltda)
const A = '11444777000161'; // demo account Marketplace Parceiro Ltda
const B = '52998224725'; // demo account Ana Souza
const C = '11444777000242'; // a third CNPJ (valid check digits), approved here with the CLI

/**
 * National bank holidays of 2026 and 2027 (ANBIMA), written out so the test
 * does not reuse the service's own calendar: Confraternização, Carnaval Monday
 * and Tuesday, Paixão de Cristo, Tiradentes, Dia do Trabalho, Corpus Christi,
 * Independência, Aparecida, Finados, Proclamação da República, Consciência
 * Negra, Natal.
 */
const HOLIDAYS = new Set([
  '2026-01-01', '2026-02-16', '2026-02-17', '2026-04-03', '2026-04-21', '2026-05-01', '2026-06-04',
  '2026-09-07', '2026-10-12', '2026-11-02', '2026-11-15', '2026-11-20', '2026-12-25',
  '2027-01-01', '2027-02-08', '2027-02-09', '2027-03-26', '2027-04-21', '2027-05-01', '2027-05-27',
  '2027-09-07', '2027-10-12', '2027-11-02', '2027-11-15', '2027-11-20', '2027-12-25',
]);

/** The São Paulo calendar date of an instant (America/Sao_Paulo, UTC−3 with no DST since 2019). */
function saoPauloDay(iso: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

/** The first business day strictly after `date`: skips Saturdays, Sundays and the holidays above. */
function nextBusinessDayAfter(date: string): string {
  let t = Date.parse(`${date}T12:00:00Z`);
  for (;;) {
    t += 86_400_000;
    const day = new Date(t).toISOString().slice(0, 10);
    assert.ok(day.startsWith('2026') || day.startsWith('2027'), `the holiday list covers 2026 and 2027 only, not ${day}`);
    const weekday = new Date(t).getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !HOLIDAYS.has(day)) return day;
  }
}

describe('e2e: a three-way split of a R$ 1 000,01 Pix sale over HTTP', () => {
  let deployment: Deployment;
  let server: TestServer | undefined;
  let sale: Json; // the transaction as the pay route answered it

  before(async () => {
    deployment = await createDeployment();
    try {
      const created = await runCli(deployment, ['account', 'create', '--document', C, '--name', 'Terceiro Parceiro Ltda', '--json']);
      assert.equal(created.code, 0, created.stderr);
      assert.deepEqual(created.json, { document: C, name: 'Terceiro Parceiro Ltda', status: 'PENDING_APPROVAL' });
      const approved = await runCli(deployment, ['account', 'approve', '--document', C, '--json']);
      assert.equal(approved.code, 0, approved.stderr);
      assert.deepEqual(approved.json, { document: C, name: 'Terceiro Parceiro Ltda', status: 'APPROVED' });
      server = await startServer({ reuse: deployment, env: { RATE_LIMIT_PER_SECOND: '1000' } });
    } catch (err) {
      await deployment.destroy();
      throw err;
    }
  });
  after(async () => {
    if (!server) return;
    const exit = await server.stop(); // also drops the database and DATA_DIR
    assert.deepEqual(exit, { code: 0, signal: null });
  });

  async function call(path: string, body?: unknown): Promise<{ status: number; json: Json }> {
    const res = await server!.api(path, body === undefined ? {} : { body });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as Json };
  }

  test('paid: every receivable line equals the hand-computed figures', async () => {
    const created = await call('/v2/payment-intents', {
      amountCents: 100_001,
      paymentMethod: 'PIX',
      confirm: true,
      referenceId: 'e2e-split-3',
      buyer: BUYER,
      splitRules: [
        { recipientDocument: A, type: 'PERCENTAGE', percentage: 33.33 },
        { recipientDocument: B, type: 'PERCENTAGE', percentage: 33.33 },
        { recipientDocument: C, type: 'FIXED', amountCents: 10_000 },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const trx = created.json.transaction;
    assert.equal(trx.status, 'PENDING');
    assert.deepEqual(trx.split, { receivables: [] }, 'no receivables before payment');

    const paid = await call(`/v2/sandbox/transactions/${trx.id}/pay`, {});
    assert.equal(paid.status, 200, JSON.stringify(paid.json));
    sale = paid.json;
    assert.equal(sale.status, 'PAID');

    // Fee: 0.99 % of 100 001 = 990.0099, rounded half-up to the centavo → 990; net 100 001 − 990 = 99 011.
    assert.equal(sale.amountCents, 100_001);
    assert.equal(sale.feeCents, 990);
    assert.equal(sale.netAmountCents, 99_011);

    // expectedOn: Pix is D+1 after the payment date on the São Paulo calendar, moved to the next
    // business day. updatedAt is the instant the pay route moved the transaction to PAID.
    const paidOn = saoPauloDay(sale.updatedAt);
    const on = nextBusinessDayAfter(paidOn);

    // Slices (percentage slices are floor(amount × bp / 10 000), the seller keeps the rest):
    //   A, B: floor(100 001 × 3 333 / 10 000) = floor(33 330.333) = 33 330 each
    //   C:    FIXED 10 000
    //   seller: 100 001 − 33 330 − 33 330 − 10 000 = 23 341
    // Fee shares, exact 990 × gross / 100 001:
    //   seller 990 × 23 341 / 100 001 = 231.07  → floor 231, remainder 0.07
    //   A, B   990 × 33 330 / 100 001 = 329.96  → floor 329, remainder 0.964 each
    //   C      990 × 10 000 / 100 001 =  98.999 → floor  98, remainder 0.999
    // Floors add up to 231 + 329 + 329 + 98 = 987; the 3 centavos left go to the largest
    // remainders: C (0.999), then A and B (0.964, a tie between recipients: rule order).
    //   fees:    seller 231, A 330, B 330, C 99 (= 990)
    //   amounts: seller 23 341 − 231 = 23 110, A and B 33 330 − 330 = 33 000, C 10 000 − 99 = 9 901 (= 99 011)
    const line = (recipientDocument: string, role: string, gross: number, fee: number, amount: number) => ({
      recipientDocument,
      role,
      installment: 1,
      grossAmountCents: gross,
      feeCents: fee,
      amountCents: amount,
      expectedOn: on,
      status: 'PENDING',
    });
    assert.deepEqual(sale.split.receivables, [
      line(SELLER, 'SELLER', 23_341, 231, 23_110),
      line(A, 'CUSTOM_SPLIT_RECIPIENT', 33_330, 330, 33_000),
      line(B, 'CUSTOM_SPLIT_RECIPIENT', 33_330, 330, 33_000),
      line(C, 'CUSTOM_SPLIT_RECIPIENT', 10_000, 99, 9_901),
    ]);

    const read = await call(`/v2/transactions/${trx.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.json, sale);
  });

  test('sandbox settle: every line PAID at once', async () => {
    assert.ok(sale, 'the sale of the previous test');
    const before = Date.now();
    const settled = await call(`/v2/sandbox/transactions/${sale.id}/settle`, {});
    assert.equal(settled.status, 200, JSON.stringify(settled.json));
    assert.equal(settled.json.status, 'PAID');
    const lines = settled.json.split.receivables as Json[];
    assert.equal(lines.length, 4);
    const paidAt = lines[0]!.paidAt;
    assert.ok(Date.parse(paidAt) >= before - 1_000 && Date.parse(paidAt) <= Date.now() + 1_000, `paidAt ${paidAt} is now`);
    assert.deepEqual(lines, sale.split.receivables.map((l: Json) => ({ ...l, status: 'PAID', paidAt })));
    const read = await call(`/v2/transactions/${sale.id}`);
    assert.deepEqual(read.json.split.receivables, lines);
  });

  test("GET /v2/receivables?recipientDocument= returns that recipient's line", async () => {
    assert.ok(sale, 'the sale of the previous test');
    for (const [doc, index] of [[C, 3], [A, 1], [SELLER, 0]] as const) {
      const res = await call(`/v2/receivables?recipientDocument=${doc}`);
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.equal(res.json.hasMore, false);
      assert.equal(res.json.data.length, 1, JSON.stringify(res.json));
      const { id, transactionId, ...rest } = res.json.data[0];
      assert.match(id, /^rcv_/);
      assert.equal(transactionId, sale.id);
      assert.equal(rest.status, 'PAID');
      const { paidAt, ...withoutPaidAt } = rest;
      assert.ok(paidAt);
      assert.equal(sale.split.receivables[index].recipientDocument, doc);
      assert.deepEqual(withoutPaidAt, { ...sale.split.receivables[index], status: 'PAID' });
    }
    const all = await call('/v2/receivables?limit=100');
    assert.equal(all.json.data.length, 4);
  });
});
