/**
 * Payment links through HTTP, as a seller and as the hosted page's script
 * would call them: the seller's routes (validation naming fields, paging,
 * cancel, idempotency), the page's public endpoints (CSRF token and Origin,
 * rate limits, buyer validation), sales that carry `paymentLinkId`, and
 * `maxPayments` held under concurrency.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from '../helpers/db.js';
import { RECIPIENTS, startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { BUYER, CARD_BUYER, pct } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const PUBLIC_API_URL = 'https://pay.example.test';
/** The page's limits are lifted but in the test of the limits: these tests pay many times a minute from one address. */
const ENV = { PUBLIC_API_URL, PAY_PAGE_PER_IP_PER_MINUTE: '100000', PAY_PAGE_PER_LINK_PER_MINUTE: '100000' };

function link(overrides: Json = {}): Json {
  return { amountCents: 15_990, description: 'Curso de fotografia', paymentMethods: ['CREDIT_CARD', 'PIX', 'BOLETO'], ...overrides };
}

async function createLink(t: TestApp, body: Json = link(), headers: Record<string, string> = {}): Promise<Json> {
  const res = await t.call({ method: 'POST', url: '/v2/payment-links', payload: body, headers });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** What the page's script reads: the data island of GET /pay/{id}. */
async function pageData(t: TestApp, id: string): Promise<Json> {
  const res = await t.app.inject({ method: 'GET', url: `/pay/${id}` });
  const match = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(res.body);
  assert.ok(match, res.body);
  return JSON.parse(match[1]!);
}

/** A request of the page: its Origin and CSRF token (override either to test the defence). */
async function pagePost(t: TestApp, id: string, path: string, payload: Json, headers: Record<string, string | undefined> = {}) {
  const token = (await pageData(t, id)).token;
  const all = { origin: PUBLIC_API_URL, 'x-pay-token': token, ...headers };
  return t.app.inject({
    method: 'POST',
    url: `/pay/${id}${path}`,
    payload,
    headers: Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>,
  });
}

const pay = (t: TestApp, id: string, body: Json, headers?: Record<string, string | undefined>) => pagePost(t, id, '/intents', body, headers);

for (const engine of engines()) {
  describe(`payment links on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: ENV });
    });
    after(async () => {
      await t.close();
    });

    describe('the seller\'s routes', () => {
      test('creates a link with its page url, ACTIVE, no payments; GET returns the same', async () => {
        const created = await createLink(t, link({ maxInstallments: 6, maxPayments: 3, metadata: { course: 'foto' }, referenceId: 'curso-42', splitRules: [pct(RECIPIENTS[0]!, 10)] }));
        assert.match(created.id, /^plink_[0-9a-z]{26}$/);
        assert.equal(created.url, `${PUBLIC_API_URL}/pay/${created.id}`);
        assert.equal(created.status, 'ACTIVE');
        assert.equal(created.paymentsCount, 0);
        assert.equal(created.maxInstallments, 6);
        assert.equal(created.maxPayments, 3);
        assert.deepEqual(created.paymentMethods, ['CREDIT_CARD', 'PIX', 'BOLETO']);
        assert.deepEqual(created.metadata, { course: 'foto' });
        const got = await t.call({ method: 'GET', url: `/v2/payment-links/${created.id}` });
        assert.equal(got.statusCode, 200);
        assert.deepEqual(got.json(), created);
      });

      test('every invalid field is named', async () => {
        const res = await t.call({
          method: 'POST',
          url: '/v2/payment-links',
          payload: { amountCents: 0, description: '', paymentMethods: ['CASH'], maxInstallments: 13, maxPayments: 0 },
        });
        assertError(res, 400, 'VALIDATION_ERROR', ['amountCents', 'description', 'paymentMethods[0]', 'maxInstallments', 'maxPayments']);
        assertError(await t.call({ method: 'POST', url: '/v2/payment-links', payload: link({ paymentMethods: [] }) }), 400, 'VALIDATION_ERROR', 'paymentMethods');
        assertError(await t.call({ method: 'POST', url: '/v2/payment-links', payload: link({ colour: 'red' }) }), 400, 'VALIDATION_ERROR', 'colour');
        const rules = await t.call({ method: 'POST', url: '/v2/payment-links', payload: link({ amountCents: 499, paymentMethods: ['PIX', 'BOLETO'], maxInstallments: 3, expiresAt: '2026-11-21T11:59:59.000Z' }) });
        assertError(rules, 400, 'VALIDATION_ERROR', ['amountCents', 'maxInstallments', 'expiresAt'], { exactly: true });
      });

      test('split rules are validated as an intent\'s', async () => {
        assertError(await t.call({ method: 'POST', url: '/v2/payment-links', payload: link({ splitRules: [pct(RECIPIENTS[0]!, 60), pct(RECIPIENTS[1]!, 50)] }) }), 422, 'SPLIT_INVALID');
        assertError(await t.call({ method: 'POST', url: '/v2/payment-links', payload: link({ splitRules: [pct('11144477735', 10)] }) }), 422, 'SPLIT_RECIPIENT_NOT_FOUND', 'splitRules[0].recipientDocument');
      });

      test('Idempotency-Key replays the creation; another body under it is refused', async () => {
        const headers = { 'idempotency-key': 'link-once' };
        const first = await t.call({ method: 'POST', url: '/v2/payment-links', payload: link(), headers });
        const again = await t.call({ method: 'POST', url: '/v2/payment-links', payload: link(), headers });
        assert.equal(again.statusCode, 201);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.equal(again.body, first.body);
        assertError(await t.call({ method: 'POST', url: '/v2/payment-links', payload: link({ amountCents: 1 }), headers }), 422, 'IDEMPOTENCY_KEY_REUSED');
      });

      test('ids: a wrong prefix or an unknown link is 404', async () => {
        assertError(await t.call({ method: 'GET', url: '/v2/payment-links/pi_00000000000000000000000000' }), 404, 'NOT_FOUND');
        assertError(await t.call({ method: 'GET', url: '/v2/payment-links/plink_00000000000000000000000000' }), 404, 'NOT_FOUND');
        assertError(await t.call({ method: 'POST', url: '/v2/payment-links/plink_00000000000000000000000000/cancel' }), 404, 'NOT_FOUND');
      });

      test('lists newest first, paged with limit, startingAfter and hasMore', async () => {
        const other = await startTestApp(engine, { env: ENV });
        try {
          const made: string[] = [];
          for (let i = 0; i < 5; i++) {
            made.push((await createLink(other)).id);
            other.clock.advance(1_000);
          }
          const first = await other.call({ method: 'GET', url: '/v2/payment-links', query: { limit: '2' } });
          assert.equal(first.statusCode, 200);
          assert.deepEqual(first.json().data.map((l: Json) => l.id), [made[4], made[3]]);
          assert.equal(first.json().hasMore, true);
          const last = await other.call({ method: 'GET', url: '/v2/payment-links', query: { limit: '3', startingAfter: made[2]! } });
          assert.deepEqual(last.json().data.map((l: Json) => l.id), [made[1], made[0]]);
          assert.equal(last.json().hasMore, false);
          assertError(await other.call({ method: 'GET', url: '/v2/payment-links', query: { limit: '101' } }), 400, 'VALIDATION_ERROR', 'limit');
          assertError(await other.call({ method: 'GET', url: '/v2/payment-links', query: { startingAfter: 'trx_1' } }), 400, 'VALIDATION_ERROR', 'startingAfter');
        } finally {
          await other.close();
        }
      });

      test('cancel: CANCELED, again unchanged, and the page takes nothing', async () => {
        const created = await createLink(t);
        const token = (await pageData(t, created.id)).token; // a buyer's page open before the cancel
        const canceled = await t.call({ method: 'POST', url: `/v2/payment-links/${created.id}/cancel` });
        assert.equal(canceled.statusCode, 200, canceled.body);
        assert.equal(canceled.json().status, 'CANCELED');
        assert.ok(canceled.json().canceledAt);
        const again = await t.call({ method: 'POST', url: `/v2/payment-links/${created.id}/cancel` });
        assert.equal(again.statusCode, 200);
        assert.deepEqual(again.json(), canceled.json());
        assert.equal((await pageData(t, created.id)).status, 'CANCELED');
        assert.equal((await pageData(t, created.id)).token, undefined, 'an unavailable page gets no token');
        assertError(await pay(t, created.id, { paymentMethod: 'PIX', buyer: BUYER }, { 'x-pay-token': token }), 409, 'PAYMENT_LINK_UNAVAILABLE');
      });

      test('expiresAt: EXPIRED from that instant on, and the page refuses to pay', async () => {
        const created = await createLink(t, link({ expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() }));
        const token = (await pageData(t, created.id)).token;
        t.clock.advance(60_000);
        assert.equal((await t.call({ method: 'GET', url: `/v2/payment-links/${created.id}` })).json().status, 'EXPIRED');
        assert.equal((await pageData(t, created.id)).status, 'EXPIRED');
        const res = await t.app.inject({
          method: 'POST',
          url: `/pay/${created.id}/intents`,
          payload: { paymentMethod: 'PIX', buyer: BUYER },
          headers: { origin: PUBLIC_API_URL, 'x-pay-token': token },
        });
        assertError(res, 409, 'PAYMENT_LINK_UNAVAILABLE');
      });
    });

    describe('the hosted page', () => {
      test('GET /pay/{id}: a strict CSP with a nonce, the link\'s data, no-store; an unknown link is a 404 page', async () => {
        const created = await createLink(t);
        const res = await t.app.inject({ method: 'GET', url: `/pay/${created.id}` });
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        const csp = String(res.headers['content-security-policy']);
        const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
        assert.ok(nonce, csp);
        assert.ok(res.body.includes(`<script nonce="${nonce}" src="/pay/assets/page.js"`));
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
        assert.match(csp, /frame-src http:\/\/localhost:3001/);
        assert.match(csp, /frame-ancestors 'none'/);
        assert.equal(res.headers['cache-control'], 'no-store');
        const data = await pageData(t, created.id);
        assert.equal(data.sellerName, 'Loja Teste Ltda');
        assert.equal(data.amountCents, 15_990);
        assert.equal(data.status, 'ACTIVE');
        const other = await t.app.inject({ method: 'GET', url: `/pay/${created.id}` });
        assert.notEqual(/nonce-([^']+)/.exec(String(other.headers['content-security-policy']))?.[1], nonce, 'a nonce per response');
        const missing = await t.app.inject({ method: 'GET', url: '/pay/plink_00000000000000000000000000' });
        assert.equal(missing.statusCode, 404);
        assert.match(missing.body, /"status":"NOT_FOUND"/);
      });

      test('the seller\'s text cannot close the data island', async () => {
        const created = await createLink(t, link({ description: '</script><script>alert(1)</script>' }));
        const res = await t.app.inject({ method: 'GET', url: `/pay/${created.id}` });
        assert.ok(!res.body.includes('<script>alert(1)'));
        assert.equal((await pageData(t, created.id)).description, '</script><script>alert(1)</script>');
      });

      test('every unknown id, well-formed or not, of any length, gets the same not-found page, which echoes none of it', async () => {
        const ids = [
          'plink_00000000000000000000000000',
          "x$'%20Link%20movido:%20pague%20via%20Pix%20chave%20golpe@evil.example",
          'plink_$`$&$1',
          `plink_${'z'.repeat(100)}`,
          '%3Cb%3Eoi%3C%2Fb%3E',
        ];
        const pages = new Set<string>();
        for (const id of ids) {
          const res = await t.app.inject({ method: 'GET', url: `/pay/${id}` });
          assert.equal(res.statusCode, 404, id);
          assert.match(String(res.headers['content-type']), /^text\/html/, id);
          const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(String(res.headers['content-security-policy']))?.[1];
          assert.ok(nonce);
          assert.doesNotMatch(res.body, /golpe|movido|zzzz|plink_0|\$`/, id);
          pages.add(res.body.split(nonce).join('NONCE'));
        }
        assert.equal(pages.size, 1, 'one page for them all (but for its nonce)');
      });

      test('CSRF: the page\'s token and Origin are required, and a token is bound to its link', async () => {
        const created = await createLink(t);
        const another = await createLink(t);
        const body = { paymentMethod: 'PIX', buyer: BUYER };
        assertError(await pay(t, created.id, body, { 'x-pay-token': undefined }), 403, 'FORBIDDEN', 'X-Pay-Token');
        assertError(await pay(t, created.id, body, { 'x-pay-token': (await pageData(t, another.id)).token }), 403, 'FORBIDDEN', 'X-Pay-Token');
        assertError(await pay(t, created.id, body, { origin: 'https://evil.example' }), 403, 'FORBIDDEN', 'Origin');
        assertError(await pay(t, created.id, body, { origin: undefined }), 403, 'FORBIDDEN', 'Origin');
        const token = (await pageData(t, created.id)).token;
        t.clock.advance(13 * 3600_000);
        assertError(await t.app.inject({ method: 'POST', url: `/pay/${created.id}/intents`, payload: body, headers: { origin: PUBLIC_API_URL, 'x-pay-token': token } }), 403, 'FORBIDDEN', 'X-Pay-Token');
      });

      test('the buyer\'s data and choices are validated, naming the field', async () => {
        const created = await createLink(t, link({ paymentMethods: ['CREDIT_CARD', 'PIX'], maxInstallments: 3 }));
        assertError(await pay(t, created.id, { paymentMethod: 'PIX', buyer: { ...BUYER, document: '52998224700' } }), 400, 'VALIDATION_ERROR', 'buyer.document');
        assertError(await pay(t, created.id, { paymentMethod: 'BOLETO', buyer: BUYER }), 400, 'VALIDATION_ERROR', 'paymentMethod');
        assertError(await pay(t, created.id, { paymentMethod: 'CREDIT_CARD', installments: 4, buyer: CARD_BUYER }), 400, 'VALIDATION_ERROR', 'installments');
        assertError(await pay(t, created.id, { paymentMethod: 'CREDIT_CARD', buyer: { name: 'Maria', document: BUYER.document } }), 400, 'VALIDATION_ERROR', 'buyer.email');
        assertError(await pay(t, created.id, { paymentMethod: 'PIX', buyer: BUYER, amountCents: 1 }), 400, 'VALIDATION_ERROR', 'amountCents');
      });

      test('a Pix through the page: a sale with paymentLinkId, listed by the filter, its status polled to PAID', async () => {
        const created = await createLink(t, link({ referenceId: 'curso-pix', metadata: { turma: 'A' } }));
        const res = await pay(t, created.id, { paymentMethod: 'PIX', buyer: BUYER });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.headers['cache-control'], 'no-store');
        const charge = res.json();
        assert.equal(charge.payment.status, 'PENDING');
        assert.match(charge.payment.pix.qrCode, /^000201/);
        assert.equal(charge.payment.amountCents, 15_990);
        assert.equal(charge.payment.buyer, undefined, 'the page sees no buyer data');
        const trxId: string = charge.payment.transactionId;
        const sale = (await t.call({ method: 'GET', url: `/v2/transactions/${trxId}` })).json();
        assert.equal(sale.paymentLinkId, created.id);
        assert.equal(sale.referenceId, 'curso-pix');
        assert.equal(sale.description, 'Curso de fotografia');
        assert.deepEqual(sale.metadata, { turma: 'A' });
        const intent = (await t.call({ method: 'GET', url: `/v2/payment-intents/${charge.intentId}` })).json();
        assert.equal(intent.paymentLinkId, created.id);

        const listed = await t.call({ method: 'GET', url: '/v2/transactions', query: { paymentLinkId: created.id } });
        assert.deepEqual(listed.json().data.map((x: Json) => x.id), [trxId]);
        assertError(await t.call({ method: 'GET', url: '/v2/transactions', query: { paymentLinkId: 'pi_123' } }), 400, 'VALIDATION_ERROR', 'paymentLinkId');

        const poll = () => t.app.inject({ method: 'GET', url: `/pay/${created.id}/transactions/${trxId}` });
        assert.equal((await poll()).json().status, 'PENDING');
        assert.equal((await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trxId}/pay` })).statusCode, 200);
        assert.equal((await poll()).json().status, 'PAID');
        assert.equal((await t.call({ method: 'GET', url: `/v2/payment-links/${created.id}` })).json().paymentsCount, 1);
        // A sale of another link, or of none, is not this page's.
        const another = await createLink(t);
        assertError(await t.app.inject({ method: 'GET', url: `/pay/${another.id}/transactions/${trxId}` }), 404, 'NOT_FOUND');
      });

      test('a boleto through the page: the digitable line and the address it needs', async () => {
        const created = await createLink(t, link({ paymentMethods: ['BOLETO'] }));
        assertError(await pay(t, created.id, { paymentMethod: 'BOLETO', buyer: CARD_BUYER }), 400, 'VALIDATION_ERROR', 'buyer.address');
        const res = await pay(t, created.id, { paymentMethod: 'BOLETO', buyer: BUYER });
        assert.equal(res.statusCode, 201, res.body);
        assert.match(res.json().payment.boleto.digitableLine, /^\d{47}$/);
      });

      test('a card through the page: intent with a ticket, the vault\'s token confirms it, PAID in installments', async () => {
        const created = await createLink(t, link({ maxInstallments: 6 }));
        const res = await pay(t, created.id, { paymentMethod: 'CREDIT_CARD', installments: 6, buyer: CARD_BUYER });
        assert.equal(res.statusCode, 201, res.body);
        const { intentId, cardTokenization } = res.json();
        assert.ok(cardTokenization.ticket);
        const { token } = await tokenizeCard(t, cardTokenization);
        const confirmed = await pagePost(t, created.id, `/intents/${intentId}/confirm`, { token });
        assert.equal(confirmed.statusCode, 201, confirmed.body);
        assert.equal(confirmed.json().status, 'PAID');
        assert.equal(confirmed.json().installments, 6);
        assert.equal(confirmed.json().card.last4, '1111');
        // An intent of another link cannot be confirmed through this one.
        const other = await createLink(t);
        assertError(await pagePost(t, other.id, `/intents/${intentId}/confirm`, { token }), 404, 'NOT_FOUND');
      });
    });

    describe('maxPayments', () => {
      test('two card payments at once of a maxPayments: 1 link: one is charged, the other refused before any charge', async () => {
        const created = await createLink(t, link({ maxPayments: 1, paymentMethods: ['CREDIT_CARD'] }));
        // The buyers' pages (and a third one) are all loaded before the link is used up: a page
        // fetched after the first charge gets no token, which would be a 403, not the race under test.
        const token = (await pageData(t, created.id)).token;
        const page = { 'x-pay-token': token };
        const starts = await Promise.all([1, 2].map(() => pay(t, created.id, { paymentMethod: 'CREDIT_CARD', buyer: CARD_BUYER }, page)));
        for (const s of starts) assert.equal(s.statusCode, 201, s.body);
        const tokens = await Promise.all(starts.map((s) => tokenizeCard(t, s.json().cardTokenization)));
        const confirms = await Promise.all(
          starts.map((s, i) => pagePost(t, created.id, `/intents/${s.json().intentId}/confirm`, { token: tokens[i]!.token }, page)),
        );
        const statuses = confirms.map((c) => c.statusCode).sort();
        assert.deepEqual(statuses, [201, 409], confirms.map((c) => c.body).join('\n'));
        assertError(confirms.find((c) => c.statusCode === 409)!, 409, 'PAYMENT_LINK_UNAVAILABLE');
        const sales = await t.call({ method: 'GET', url: '/v2/transactions', query: { paymentLinkId: created.id } });
        assert.equal(sales.json().data.length, 1, 'one sale, one charge');
        const charges = await t.db.db.selectFrom('acquirer_charges').select('reference').where('reference', 'in', starts.map((s) => s.json().intentId)).execute();
        assert.equal(charges.length, 1, 'the acquirer saw one payment');
        const after = (await t.call({ method: 'GET', url: `/v2/payment-links/${created.id}` })).json();
        assert.equal(after.status, 'COMPLETED');
        assert.equal(after.paymentsCount, 1);
        assert.equal((await pageData(t, created.id)).status, 'COMPLETED');
        assertError(await pay(t, created.id, { paymentMethod: 'CREDIT_CARD', buyer: CARD_BUYER }, { 'x-pay-token': token }), 409, 'PAYMENT_LINK_UNAVAILABLE');
      });

      test('a sale refunded in full frees its slot: the COMPLETED link takes one more payment; a partial refund does not', async () => {
        const created = await createLink(t, link({ maxPayments: 1, paymentMethods: ['CREDIT_CARD'] }));
        const token = (await pageData(t, created.id)).token; // a page loaded before the link was used up
        const payOnce = async () => {
          const start = await pay(t, created.id, { paymentMethod: 'CREDIT_CARD', buyer: CARD_BUYER });
          assert.equal(start.statusCode, 201, start.body);
          const card = await tokenizeCard(t, start.json().cardTokenization);
          const paid = await pagePost(t, created.id, `/intents/${start.json().intentId}/confirm`, { token: card.token });
          assert.equal(paid.statusCode, 201, paid.body);
          return (await t.call({ method: 'GET', url: '/v2/transactions', query: { paymentLinkId: created.id } })).json().data[0].id as string;
        };
        const refund = (trx: string, payload: Json, key: string) => t.call({ method: 'POST', url: `/v2/transactions/${trx}/refunds`, payload, headers: { 'idempotency-key': key } });
        const status = async () => (await t.call({ method: 'GET', url: `/v2/payment-links/${created.id}` })).json().status;
        const sale = await payOnce();
        assert.equal(await status(), 'COMPLETED');
        assert.equal((await refund(sale, { amountCents: 1000 }, 'partial-refund')).statusCode, 201);
        assert.equal(await status(), 'COMPLETED', 'a partial refund leaves the sale PAID');
        assertError(await pay(t, created.id, { paymentMethod: 'CREDIT_CARD', buyer: CARD_BUYER }, { 'x-pay-token': token }), 409, 'PAYMENT_LINK_UNAVAILABLE');
        assert.equal((await refund(sale, {}, 'rest-refund')).statusCode, 201);
        assert.equal(await status(), 'ACTIVE', 'the sale given back in full is CANCELED');
        await payOnce();
        assert.equal(await status(), 'COMPLETED');
      });

      test('a pending Pix holds the slot until its window closes; the seller\'s own confirm is held too', async () => {
        const created = await createLink(t, link({ maxPayments: 1, paymentMethods: ['PIX', 'CREDIT_CARD'] }));
        const card = await pay(t, created.id, { paymentMethod: 'CREDIT_CARD', buyer: CARD_BUYER });
        const first = await pay(t, created.id, { paymentMethod: 'PIX', buyer: BUYER });
        assert.equal(first.statusCode, 201, first.body);
        assertError(await pay(t, created.id, { paymentMethod: 'PIX', buyer: BUYER }), 409, 'PAYMENT_LINK_UNAVAILABLE');
        // The seller confirming the link's card intent with its key meets the same guard.
        const { token } = await tokenizeCard(t, card.json().cardTokenization);
        const bySeller = await t.call({ method: 'POST', url: `/v2/payment-intents/${card.json().intentId}/confirm`, payload: { token }, headers: { 'idempotency-key': 'seller-confirm' } });
        assertError(bySeller, 409, 'PAYMENT_LINK_UNAVAILABLE');
        assert.equal((await t.call({ method: 'GET', url: `/v2/payment-links/${created.id}` })).json().status, 'ACTIVE', 'pending is not paid');
        t.clock.advance(3600_000 + 1);
        const again = await pay(t, created.id, { paymentMethod: 'PIX', buyer: BUYER });
        assert.equal(again.statusCode, 201, again.body);
      });
    });
  });
}

describe('the hosted page\'s rate limits', () => {
  test('per client address and per link, with Retry-After', async () => {
    const t = await startTestApp('pglite', { env: { ...ENV, PAY_PAGE_PER_IP_PER_MINUTE: '2', PAY_PAGE_PER_LINK_PER_MINUTE: '3' } });
    try {
      const created = await createLink(t);
      const body = { paymentMethod: 'PIX', buyer: BUYER };
      for (let i = 0; i < 2; i++) assert.equal((await pay(t, created.id, body)).statusCode, 201);
      const limited = await pay(t, created.id, body);
      assertError(limited, 429, 'RATE_LIMITED');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      // Another address may still pay, until the link's own limit.
      const token = (await pageData(t, created.id)).token;
      const other = (ip: string) => t.app.inject({ method: 'POST', url: `/pay/${created.id}/intents`, payload: body, remoteAddress: ip, headers: { origin: PUBLIC_API_URL, 'x-pay-token': token } });
      assert.equal((await other('203.0.113.7')).statusCode, 201);
      assertError(await other('203.0.113.8'), 429, 'RATE_LIMITED');
    } finally {
      await t.close();
    }
  });

  test('behind a proxy named in TRUST_PROXY the buyer\'s address comes from X-Forwarded-For; from anyone else that header is ignored', async () => {
    const t = await startTestApp('pglite', { env: { ...ENV, PAY_PAGE_PER_IP_PER_MINUTE: '1', TRUST_PROXY: '10.0.0.0/8' } });
    try {
      const created = await createLink(t);
      const token = (await pageData(t, created.id)).token;
      const body = { paymentMethod: 'PIX', buyer: BUYER };
      const from = (remoteAddress: string, forwardedFor: string) =>
        t.app.inject({ method: 'POST', url: `/pay/${created.id}/intents`, payload: body, remoteAddress, headers: { origin: PUBLIC_API_URL, 'x-pay-token': token, 'x-forwarded-for': forwardedFor } });
      // Two buyers behind the same proxy are two addresses.
      assert.equal((await from('10.1.2.3', '198.51.100.1')).statusCode, 201);
      assert.equal((await from('10.1.2.3', '198.51.100.2')).statusCode, 201);
      assertError(await from('10.1.2.3', '198.51.100.1'), 429, 'RATE_LIMITED');
      // A client outside the trusted range cannot pick its address by sending the header.
      assert.equal((await from('203.0.113.9', '198.51.100.3')).statusCode, 201);
      assertError(await from('203.0.113.9', '198.51.100.4'), 429, 'RATE_LIMITED');
    } finally {
      await t.close();
    }
  });
});
