/**
 * Split rules through the API: every refusal of the contract (422
 * SPLIT_INVALID / SPLIT_RECIPIENT_NOT_FOUND, 400 VALIDATION_ERROR) naming its
 * field and writing nothing, then the receivables of a paid sale: when they
 * appear, where they are shown (GET, the transaction.paid event), their sums,
 * roles, the company's fee plan, and their São Paulo business-day date.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidTaxId } from '../../src/lib/tax-id.js';
import { DEFAULT_FEE_PLAN } from '../../src/modules/fees/index.js';
import { engines } from '../helpers/db.js';
import { RECIPIENTS, SELLER_DOCUMENT, startTestApp, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { boletoIntent, cpf, fixed, pct, pixIntent } from '../helpers/fixtures.js';
import { deliveredBody } from '../../src/modules/events/index.js';

type Json = Record<string, any>;

const [A, B] = RECIPIENTS as [string, string]; // approved accounts of the test app
const UNKNOWN = '12345678909'; // a valid CPF with no account
const PENDING_ACCOUNT = '98765432100'; // a valid CPF whose account is created but not approved

function create(t: TestApp, body: Json) {
  return t.call({ method: 'POST', url: '/v2/payment-intents', payload: body });
}
/** Creates a confirmed sale (confirm: true) and pays it in the sandbox; returns [created, paid] transactions. */
async function paidSale(t: TestApp, body: Json): Promise<[Json, Json]> {
  const res = await create(t, { ...body, confirm: true });
  assert.equal(res.statusCode, 201, res.body);
  const created = res.json().transaction;
  const paid = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${created.id}/pay` });
  assert.equal(paid.statusCode, 200, paid.body);
  return [created, paid.json()];
}
async function getTransaction(t: TestApp, id: string): Promise<Json> {
  const res = await t.call({ method: 'GET', url: `/v2/transactions/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}
function sums(lines: Json[]) {
  return {
    gross: lines.reduce((s, l) => s + l.grossAmountCents, 0),
    fee: lines.reduce((s, l) => s + l.feeCents, 0),
    amount: lines.reduce((s, l) => s + l.amountCents, 0),
  };
}
function assertInvariants(trx: Json): void {
  const lines = trx.split.receivables as Json[];
  assert.ok(lines.length > 0, 'a paid transaction has receivables');
  assert.deepEqual(sums(lines), { gross: trx.amountCents, fee: trx.feeCents, amount: trx.netAmountCents });
  assert.equal(trx.feeCents + trx.netAmountCents, trx.amountCents);
  for (const l of lines) {
    assert.ok(l.amountCents >= 0 && l.feeCents >= 0 && l.grossAmountCents >= 0, JSON.stringify(l));
    assert.equal(l.grossAmountCents - l.feeCents, l.amountCents);
  }
}
async function countRows(t: TestApp) {
  const count = async (table: 'payment_intents' | 'transactions' | 'events' | 'receivables') =>
    Number((await t.db.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { intents: await count('payment_intents'), transactions: await count('transactions'), events: await count('events'), receivables: await count('receivables') };
}

for (const engine of engines()) {
  describe(`split and receivables of a sale on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
      await t.services.companies.createAccount(PENDING_ACCOUNT, 'Conta em Análise');
    });
    after(async () => {
      await t.close();
    });

    // ---- 422 SPLIT_INVALID ------------------------------------------------

    const invalid: [string, Json[], string][] = [
      ['fixed slices above the amount name the fixed rule that goes over', [fixed(A, 6_000), fixed(B, 4_001)], 'splitRules[1].amountCents'],
      ['a fixed slice after a percentage one goes over: the fixed rule is named', [pct(A, 60), fixed(B, 4_001)], 'splitRules[1].amountCents'],
      ['a percentage slice that goes over is named on its percentage', [fixed(A, 9_000), pct(B, 10.01)], 'splitRules[1].percentage'],
      ['percentages adding up to more than 100', [pct(A, 60), pct(B, 40.01)], 'splitRules[1].percentage'],
      ['a single percentage above 100', [pct(A, 100.01)], 'splitRules[0].percentage'],
      ['a percentage of 0', [pct(A, 0)], 'splitRules[0].percentage'],
      ['a negative percentage', [pct(A, -5)], 'splitRules[0].percentage'],
      ['a percentage with 3 decimals (10.555)', [pct(A, 10.555)], 'splitRules[0].percentage'],
      ['a fixed amount of 0', [fixed(A, 0)], 'splitRules[0].amountCents'],
      ['a negative fixed amount', [fixed(A, -100)], 'splitRules[0].amountCents'],
      ['PERCENTAGE without percentage', [fixed(A, 100), pct(B)], 'splitRules[1].percentage'],
      ['FIXED without amountCents', [pct(A, 10), fixed(B)], 'splitRules[1].amountCents'],
      ['a duplicate recipient', [pct(A, 10), fixed(A, 100)], 'splitRules[1].recipientDocument'],
      ["the seller's own document", [pct(SELLER_DOCUMENT, 10)], 'splitRules[0].recipientDocument'],
    ];
    for (const [name, splitRules, field] of invalid) {
      test(`422 SPLIT_INVALID: ${name} (${field})`, async () => {
        for (const body of [pixIntent({ splitRules }), pixIntent({ splitRules, confirm: true }), boletoIntent({ splitRules })]) {
          assertError(await create(t, body), 422, 'SPLIT_INVALID', [field]);
        }
      });
    }

    test('the limits themselves are accepted: 100 % exactly, slices equal to the amount, 2 decimals', async () => {
      for (const splitRules of [[pct(A, 60), pct(B, 40)], [fixed(A, 6_000), fixed(B, 4_000)], [pct(A, 10.55), pct(B, 0.01)]]) {
        const res = await create(t, pixIntent({ splitRules }));
        assert.equal(res.statusCode, 201, res.body);
        assert.deepEqual(res.json().splitRules, splitRules);
      }
    });

    // ---- 422 SPLIT_RECIPIENT_NOT_FOUND ------------------------------------

    test('422 SPLIT_RECIPIENT_NOT_FOUND for a valid document without an account, naming its rule', async () => {
      assertError(await create(t, pixIntent({ splitRules: [pct(UNKNOWN, 10)] })), 422, 'SPLIT_RECIPIENT_NOT_FOUND', ['splitRules[0].recipientDocument']);
      const res = await create(t, pixIntent({ splitRules: [pct(A, 10), fixed(UNKNOWN, 100), fixed(B, 100)], confirm: true }));
      assertError(res, 422, 'SPLIT_RECIPIENT_NOT_FOUND', ['splitRules[1].recipientDocument']);
      assert.deepEqual(res.json().details.map((d: Json) => d.field), ['splitRules[1].recipientDocument']);
    });

    test('422 SPLIT_RECIPIENT_NOT_FOUND for an account created but not approved; accepted once approved', async () => {
      const fresh = cpf('111444777');
      assert.ok(isValidTaxId(fresh));
      await t.services.companies.createAccount(fresh, 'Conta Nova');
      for (const doc of [PENDING_ACCOUNT, fresh]) {
        assertError(await create(t, pixIntent({ splitRules: [fixed(B, 100), pct(doc, 5)] })), 422, 'SPLIT_RECIPIENT_NOT_FOUND', [
          'splitRules[1].recipientDocument',
        ]);
      }
      await t.services.companies.approveAccount(fresh);
      const res = await create(t, pixIntent({ splitRules: [fixed(B, 100), pct(fresh, 5)] }));
      assert.equal(res.statusCode, 201, res.body);
    });

    // ---- 400 VALIDATION_ERROR (shape) -------------------------------------

    test('400 VALIDATION_ERROR for a recipientDocument that is not digits or has bad check digits', async () => {
      for (const doc of ['529.982.247-25', 'abc', '5299822472a']) {
        assertError(await create(t, pixIntent({ splitRules: [pct(doc, 10)] })), 400, 'VALIDATION_ERROR', ['splitRules[0].recipientDocument']);
      }
      // Digits, but not a CPF or a CNPJ: wrong check digit, wrong length.
      for (const doc of ['52998224724', '11444777000162', '5299822472', '123456789012']) {
        assertError(await create(t, pixIntent({ splitRules: [fixed(B, 100), pct(doc, 10)] })), 400, 'VALIDATION_ERROR', [
          'splitRules[1].recipientDocument',
        ]);
      }
    });

    test('400 VALIDATION_ERROR for an unknown type, a non-integer fixed amount and an unknown field of a rule', async () => {
      assertError(await create(t, pixIntent({ splitRules: [{ recipientDocument: A, type: 'SHARE', percentage: 10 }] })), 400, 'VALIDATION_ERROR', [
        'splitRules[0].type',
      ]);
      assertError(await create(t, pixIntent({ splitRules: [fixed(A, 10.5)] })), 400, 'VALIDATION_ERROR', ['splitRules[0].amountCents']);
      assertError(await create(t, pixIntent({ splitRules: [{ ...pct(A, 10), recipient: B }] })), 400, 'VALIDATION_ERROR', ['splitRules[0].recipient']);
    });

    test('400 VALIDATION_ERROR for 21 rules; 20 are accepted up to the approval check', async () => {
      const docs = Array.from({ length: 21 }, (_, i) => cpf(String(100_000_001 + i * 7)));
      assert.equal(new Set(docs).size, 21);
      assert.ok(docs.every(isValidTaxId));
      const rules = docs.map((d) => fixed(d, 10));
      assertError(await create(t, pixIntent({ splitRules: rules })), 400, 'VALIDATION_ERROR', ['splitRules']);
      // 20 well-formed rules pass the shape check; their recipients have no account.
      assertError(await create(t, pixIntent({ splitRules: rules.slice(0, 20) })), 422, 'SPLIT_RECIPIENT_NOT_FOUND', ['splitRules[0].recipientDocument']);
    });

    test('a refused split writes nothing: no intent, no transaction, no event', async () => {
      const before = await countRows(t);
      const refused: [Json, number][] = [
        [pixIntent({ splitRules: [pct(A, 60), pct(B, 50)], confirm: true }), 422],
        [boletoIntent({ splitRules: [fixed(A, 20_000)], confirm: true }), 422],
        [pixIntent({ splitRules: [pct(UNKNOWN, 10)], confirm: true }), 422],
        [pixIntent({ splitRules: [pct(PENDING_ACCOUNT, 10)] }), 422],
        [pixIntent({ splitRules: [pct('52998224724', 10)], confirm: true }), 400],
        [pixIntent({ splitRules: [{ recipientDocument: A, type: 'SHARE' }] }), 400],
      ];
      for (const [body, status] of refused) {
        const res = await create(t, body);
        assert.equal(res.statusCode, status, res.body);
      }
      assert.deepEqual(await countRows(t), before);
    });

    // ---- receivables of a paid sale ---------------------------------------

    test('receivables are empty while PENDING, appear once paid, and GET and the transaction.paid event show the same lines', async () => {
      t.clock.set('2026-11-23T15:00:00.000Z'); // Monday, 12:00 in São Paulo
      const res = await create(t, pixIntent({ amountCents: 50_000, splitRules: [pct(A, 20), fixed(B, 7_500)], confirm: true }));
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json().transaction;
      assert.equal(created.status, 'PENDING');
      assert.deepEqual(created.split, { receivables: [] });
      assert.deepEqual((await getTransaction(t, created.id)).split, { receivables: [] });
      const createdEvent = await t.db.db.selectFrom('events').select('body').where('transaction_id', '=', created.id).where('type', '=', 'transaction.created').executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(createdEvent.body).data.transaction.split, { receivables: [] });

      const paid = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${created.id}/pay` });
      assert.equal(paid.statusCode, 200, paid.body);
      const got = await getTransaction(t, created.id);
      assert.equal(got.status, 'PAID');
      assert.deepEqual(paid.json(), got);
      // 50 000 at 0.99 % = 495 fee. Slices: A 10 000, B 7 500, seller 32 500.
      // Fee shares 495 × gross / 50 000: seller 321.75, A 99, B 74.25 → floors 321 + 99 + 74 = 494; 1 left to the seller (0.75).
      assert.deepEqual(got.split.receivables, [
        { recipientDocument: SELLER_DOCUMENT, role: 'SELLER', installment: 1, grossAmountCents: 32_500, feeCents: 322, amountCents: 32_178, expectedOn: '2026-11-24', status: 'PENDING' },
        { recipientDocument: A, role: 'CUSTOM_SPLIT_RECIPIENT', installment: 1, grossAmountCents: 10_000, feeCents: 99, amountCents: 9_901, expectedOn: '2026-11-24', status: 'PENDING' },
        { recipientDocument: B, role: 'CUSTOM_SPLIT_RECIPIENT', installment: 1, grossAmountCents: 7_500, feeCents: 74, amountCents: 7_426, expectedOn: '2026-11-24', status: 'PENDING' },
      ]);
      assertInvariants(got);

      const events = await t.db.db.selectFrom('events').select(['type', 'body']).where('transaction_id', '=', created.id).where('type', '=', 'transaction.paid').execute();
      assert.equal(events.length, 1);
      const body = JSON.parse(deliveredBody(events[0]!.body));
      assert.equal(body.type, 'transaction.paid');
      assert.deepEqual(body.data.transaction.split.receivables, got.split.receivables);
      assert.deepEqual(body.data.transaction, got);

      // Paying again answers the same transaction and creates no second set of lines.
      const again = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${created.id}/pay` });
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json(), got);
      const lines = await t.db.db.selectFrom('receivables').select('id').where('transaction_id', '=', created.id).execute();
      assert.equal(lines.length, 3);
    });

    test('a sale without split rules has one SELLER line with the whole amount and fee', async () => {
      t.clock.set('2026-11-23T15:00:00.000Z');
      const [, paid] = await paidSale(t, pixIntent({ amountCents: 10_051 }));
      assert.deepEqual(paid.split.receivables, [
        { recipientDocument: SELLER_DOCUMENT, role: 'SELLER', installment: 1, grossAmountCents: 10_051, feeCents: 100, amountCents: 9_951, expectedOn: '2026-11-24', status: 'PENDING' },
      ]);
    });

    test('a canceled sale never gets receivables', async () => {
      const res = await create(t, pixIntent({ splitRules: [pct(A, 10)], confirm: true }));
      const id = res.json().transaction.id;
      const failed = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${id}/fail` });
      assert.equal(failed.statusCode, 200, failed.body);
      assert.equal(failed.json().status, 'CANCELED');
      assert.deepEqual(failed.json().split, { receivables: [] });
      assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${id}/pay` })).statusCode, 409);
      assert.deepEqual((await getTransaction(t, id)).split, { receivables: [] });
    });

    test('set-fees: a Pix rate of 150 bp applies to sales confirmed after it; one confirmed before keeps its fee', async () => {
      t.clock.set('2026-11-23T15:00:00.000Z');
      const earlier = (await create(t, pixIntent({ amountCents: 10_000, splitRules: [pct(A, 50)], confirm: true }))).json().transaction;
      assert.equal(earlier.feeCents, 99); // default 0.99 %
      await t.services.companies.setFees(t.companyId, { pixBp: 150 });
      try {
        const [created, later] = await paidSale(t, pixIntent({ amountCents: 10_000, splitRules: [pct(A, 50)] }));
        assert.equal(created.feeCents, 150); // 1.5 % of 10 000
        assert.equal(later.feeCents, 150);
        assert.equal(later.netAmountCents, 9_850);
        // 50/50: 75 each (exact shares).
        assert.deepEqual(later.split.receivables.map((l: Json) => [l.role, l.grossAmountCents, l.feeCents, l.amountCents]), [
          ['SELLER', 5_000, 75, 4_925],
          ['CUSTOM_SPLIT_RECIPIENT', 5_000, 75, 4_925],
        ]);
        // Boleto is unaffected by the Pix rate.
        const [, boleto] = await paidSale(t, boletoIntent({ amountCents: 10_000 }));
        assert.equal(boleto.feeCents, 349);

        const paidEarlier = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${earlier.id}/pay` });
        assert.equal(paidEarlier.json().feeCents, 99);
        assertInvariants(paidEarlier.json());
      } finally {
        await t.services.companies.setFees(t.companyId, { pixBp: DEFAULT_FEE_PLAN.pixBp });
      }
      const [created] = await paidSale(t, pixIntent({ amountCents: 10_000 }));
      assert.equal(created.feeCents, 99);
    });

    test('boleto with split: hand-computed lines, and Σ gross, Σ fee, Σ amount match the transaction', async () => {
      t.clock.set('2026-11-23T15:00:00.000Z');
      const [, paid] = await paidSale(t, boletoIntent({ amountCents: 12_345, splitRules: [pct(A, 12.5), fixed(B, 1_000)] }));
      // A: floor(12 345 × 1 250 / 10 000) = 1 543; B: 1 000; seller: 12 345 − 1 543 − 1 000 = 9 802.
      // Fee 349 flat; shares 349 × gross / 12 345: seller 277.108, A 43.621, B 28.271 → floors 348, 1 left to A (largest remainder).
      assert.equal(paid.feeCents, 349);
      assert.deepEqual(paid.split.receivables.map((l: Json) => [l.recipientDocument, l.role, l.grossAmountCents, l.feeCents, l.amountCents, l.expectedOn]), [
        [SELLER_DOCUMENT, 'SELLER', 9_802, 277, 9_525, '2026-11-24'],
        [A, 'CUSTOM_SPLIT_RECIPIENT', 1_543, 44, 1_499, '2026-11-24'],
        [B, 'CUSTOM_SPLIT_RECIPIENT', 1_000, 28, 972, '2026-11-24'],
      ]);
      assertInvariants(paid);
    });

    test('sums hold for awkward amounts and mixed rules, and roles follow the documents', async () => {
      t.clock.set('2026-11-23T15:00:00.000Z');
      const cases: Json[] = [
        pixIntent({ amountCents: 1, splitRules: [pct(A, 0.01)] }),
        pixIntent({ amountCents: 3, splitRules: [pct(A, 33.33), pct(B, 33.33)] }),
        pixIntent({ amountCents: 100_001, splitRules: [pct(A, 33.33), pct(B, 33.33)] }),
        pixIntent({ amountCents: 999_999, splitRules: [pct(A, 99.99)] }),
        pixIntent({ amountCents: 7_777, splitRules: [fixed(A, 7_000), fixed(B, 777)] }), // the seller's slice is 0
        boletoIntent({ amountCents: 500, splitRules: [fixed(A, 499)] }), // the fee (349) is larger than the seller's slice
        boletoIntent({ amountCents: 9_999_999_999, splitRules: [pct(A, 12.34), fixed(B, 1)] }),
      ];
      for (const body of cases) {
        const [, paid] = await paidSale(t, body);
        assertInvariants(paid);
        const lines = paid.split.receivables as Json[];
        assert.equal(lines.length, 1 + body.splitRules.length);
        assert.deepEqual(lines.map((l) => l.role), ['SELLER', ...body.splitRules.map(() => 'CUSTOM_SPLIT_RECIPIENT')]);
        assert.deepEqual(lines.map((l) => l.recipientDocument), [SELLER_DOCUMENT, ...body.splitRules.map((r: Json) => r.recipientDocument)]);
        assert.ok(lines.every((l) => l.installment === 1 && l.status === 'PENDING'));
      }
    });

    test('expectedOn is D+1 on the São Paulo calendar, moved past weekends and national holidays', async () => {
      const cases: [string, string, string][] = [
        // [payment instant (UTC), São Paulo date it falls on, expected transfer date]
        ['2026-04-02T15:00:00.000Z', 'Thursday 04-02', '2026-04-06'], // D+1 is Good Friday 04-03, then the weekend
        ['2026-03-06T15:00:00.000Z', 'Friday 03-06', '2026-03-09'], // D+1 is Saturday → Monday
        ['2026-03-06T02:30:00.000Z', 'Thursday 03-05 (23:30 in São Paulo)', '2026-03-06'], // still the previous day in São Paulo
        ['2026-03-07T02:59:59.999Z', 'Friday 03-06 (23:59:59 in São Paulo)', '2026-03-09'],
        ['2026-03-07T03:00:00.000Z', 'Saturday 03-07 (00:00 in São Paulo)', '2026-03-09'], // D+1 Sunday → Monday
        ['2026-02-13T18:00:00.000Z', 'Friday before Carnaval', '2026-02-18'], // Sat, Sun, Carnaval Mon and Tue
        ['2026-11-19T15:00:00.000Z', 'Thursday 11-19', '2026-11-23'], // D+1 Consciência Negra (Friday), weekend
        ['2026-12-24T15:00:00.000Z', 'Thursday 12-24', '2026-12-28'], // Christmas Friday, weekend
        ['2026-12-31T15:00:00.000Z', 'Thursday 12-31', '2027-01-04'], // New Year Friday, weekend, across the year
      ];
      for (const [at, label, expected] of cases) {
        t.clock.set(at);
        const [, paid] = await paidSale(t, pixIntent({ splitRules: [pct(A, 10)] }));
        assert.deepEqual(paid.split.receivables.map((l: Json) => l.expectedOn), [expected, expected], `${label} → ${expected}`);
      }
      // Confirmed on one day and paid on another: the date counts from the payment.
      t.clock.set('2026-04-02T15:00:00.000Z');
      const intent = (await create(t, boletoIntent({ splitRules: [fixed(B, 1_000)], confirm: true }))).json();
      t.clock.set('2026-04-06T15:00:00.000Z'); // Monday
      const paid = (await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${intent.transactionId}/pay` })).json();
      assert.equal(paid.status, 'PAID');
      assert.deepEqual(paid.split.receivables.map((l: Json) => l.expectedOn), ['2026-04-07', '2026-04-07']);
    });
  });
}
