/**
 * What a seller follows of a sale after it is made: the status filter for
 * refunded, partly refunded and charged-back sales (list and CSV, on the
 * server), a paid sale's receipt (the seller's session, or the unguessable
 * address the buyer's hosted page links to; anyone else 404), a link shared
 * from the list (its QR code asked for later), and the sandbox hosted page's
 * "Simular pagamento" (the page's token, Origin and limits).
 */
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from '../helpers/db.js';
import { settled } from '../helpers/outcome.js';
import { productionEnv, startTestApp, tokenizeCard, type TestApp } from '../helpers/app.js';
import { startDashboardApp, type DashboardTestApp } from '../helpers/dashboard.js';
import { assertError } from '../helpers/assert.js';
import { BUYER, cardIntent, pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const PUBLIC_API_URL = 'https://pay.example.test';
const ENV = { PUBLIC_API_URL, PAY_PAGE_PER_IP_PER_MINUTE: '100000', PAY_PAGE_PER_LINK_PER_MINUTE: '100000' };

/** The JSON island a page of the hosted pages renders (GET /pay/{id}, a receipt). */
function islandOf(html: string): Json {
  const match = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html);
  assert.ok(match, html);
  return JSON.parse(match[1]!);
}

for (const engine of engines()) {
  describe(`dashboard sales follow-up on ${engine}`, () => {
    let t: DashboardTestApp;
    let otherCompany: string;
    before(async () => {
      t = await startDashboardApp(engine, { env: ENV });
      otherCompany = settled(await t.services.companies.createCompany('Outra Loja Ltda', '00000000000191')).id;
    });
    after(() => t.close());

    async function paidPix(amountCents = 4_990): Promise<Json> {
      const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ amountCents, confirm: true, referenceId: `pix-${randomUUID()}` }) });
      assert.equal(res.statusCode, 201, res.body);
      const paid = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${res.json().transaction.id}/pay` });
      assert.equal(paid.statusCode, 200, paid.body);
      return paid.json();
    }
    async function paidCard(amountCents = 12_000): Promise<Json> {
      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ amountCents, installments: 3, referenceId: `card-${randomUUID()}` }) });
      assert.equal(created.statusCode, 201, created.body);
      const { token } = await tokenizeCard(t, created.json().cardTokenization);
      const res = await t.call({ method: 'POST', url: `/v2/payment-intents/${created.json().id}/confirm`, headers: { 'idempotency-key': randomUUID() }, payload: { token } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    }
    async function refund(id: string, amount: number): Promise<Json> {
      const res = await t.dash({ method: 'POST', url: `/transactions/${id}/refunds`, headers: { 'idempotency-key': randomUUID() }, payload: { amount } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    }
    const listed = async (status: string): Promise<string[]> => {
      const res = await t.dash({ method: 'GET', url: '/transactions', query: { status, limit: '100' } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.map((x: Json) => x.id);
    };
    const exported = async (status: string): Promise<string[]> => {
      const res = await t.dash({ method: 'GET', url: '/transactions.csv', query: { status } });
      assert.equal(res.statusCode, 200, res.body);
      const lines = res.body.replace(/^\uFEFF/, '').trim().split(/\r\n/).slice(1);
      return lines.map((line) => (/trx_[0-9a-z]+/.exec(line) ?? [''])[0]);
    };

    test('the status filter finds refunded, partly refunded and charged-back sales, in the list and the export, on the server', async () => {
      const plain = await paidPix();
      const partly = await paidPix();
      await refund(partly.id, 2_495);
      const fully = await paidPix();
      await refund(fully.id, fully.amountCents);
      const disputed = await paidCard();
      const chargeback = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${disputed.id}/chargeback` });
      assert.equal(chargeback.statusCode, 200, chargeback.body);

      assert.deepEqual(await listed('REFUNDED'), [fully.id]);
      assert.deepEqual(await listed('PARTIALLY_REFUNDED'), [partly.id]);
      assert.deepEqual(await listed('CHARGED_BACK'), [disputed.id]);
      const paid = await listed('PAID');
      assert.ok(paid.includes(plain.id) && paid.includes(partly.id), 'a partly refunded sale is still PAID');
      assert.deepEqual(await exported('REFUNDED'), [fully.id]);
      assert.deepEqual(await exported('CHARGED_BACK'), [disputed.id]);
      // A status the filter does not know is a 400 naming the field, never a 500.
      assertError(await t.dash({ method: 'GET', url: '/transactions', query: { status: 'REFUNDEDX' } }), 400, 'VALIDATION_ERROR', 'status');
      // Another company's sales are not found by the filter.
      t.as('admin', otherCompany);
      try {
        assert.deepEqual(await listed('REFUNDED'), []);
      } finally {
        t.as('admin');
      }
    });

    test("a paid sale's receipt: the seller's people see it with its address; the address opens it without a session; anyone else gets 404", async () => {
      const sale = await paidCard(4_990);
      t.as('viewer');
      const seller = await t.dash({ method: 'GET', url: `/transactions/${sale.id}/receipt` });
      t.as('admin');
      assert.equal(seller.statusCode, 200, seller.body);
      const { receipt, url } = seller.json();
      assert.deepEqual(
        { ...receipt, paidAt: typeof receipt.paidAt },
        {
          transactionId: sale.id,
          amountCents: 4_990,
          paymentMethod: 'CREDIT_CARD',
          installments: 3,
          card: { brand: sale.paymentDetails.card.brand, last4: sale.paymentDetails.card.last4 },
          paidAt: 'string',
          sellerName: sale.sellerName,
          sellerDocument: receipt.sellerDocument,
          ...(sale.description !== undefined ? { description: sale.description } : {}),
          buyerName: sale.buyer.name,
          buyerDocument: `***.${sale.buyer.document.slice(3, 6)}.${sale.buyer.document.slice(6, 9)}-**`,
          refundedCents: 0,
        },
      );
      assert.match(url, new RegExp(`^${PUBLIC_API_URL}/pay/receipts/${sale.id}/[A-Za-z0-9_-]{32}$`));
      assert.ok(!JSON.stringify(receipt).includes(sale.buyer.document), 'the document is masked');
      assert.ok(!sale.buyer.email || !JSON.stringify(receipt).includes(sale.buyer.email), 'no e-mail on a receipt');

      const path = new URL(url).pathname;
      const page = await t.app.inject({ method: 'GET', url: path });
      assert.equal(page.statusCode, 200, page.body);
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.match(String(page.headers['content-security-policy']), /script-src[^;]*'nonce-/);
      assert.deepEqual(islandOf(page.body), { status: 'PAID', receipt, url });

      // A stranger: no token, a wrong token, another sale's token, an unknown sale: the same 404 page, which says nothing of the sale.
      const other = await paidPix();
      const otherUrl = (await t.dash({ method: 'GET', url: `/transactions/${other.id}/receipt` })).json().url as string;
      const token = path.split('/').pop()!;
      for (const wrong of [
        `/pay/receipts/${sale.id}`,
        `/pay/receipts/${sale.id}/${'A'.repeat(32)}`,
        `/pay/receipts/${sale.id}/${otherUrl.split('/').pop()}`,
        `/pay/receipts/${other.id}/${token}`,
        `/pay/receipts/trx_00000000000000000000000000/${token}`,
        `/pay/receipts/${sale.id}/${token}x`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url: wrong });
        assert.equal(res.statusCode, 404, wrong);
        assert.ok(!res.body.includes(sale.buyer.name) && !res.body.includes(String(sale.amountCents)), wrong);
      }

      // Without a session, in another company, or for a sale never paid: no receipt.
      t.as(undefined);
      assertError(await t.dash({ method: 'GET', url: `/transactions/${sale.id}/receipt` }), 401, 'UNAUTHORIZED');
      t.as('admin', otherCompany);
      assertError(await t.dash({ method: 'GET', url: `/transactions/${sale.id}/receipt` }), 404, 'NOT_FOUND');
      t.as('admin');
      const pending = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true, referenceId: `pending-${randomUUID()}` }) });
      assertError(await t.dash({ method: 'GET', url: `/transactions/${pending.json().transaction.id}/receipt` }), 404, 'NOT_FOUND');
    });

    test("the hosted page links to the receipt once paid, and the sandbox page's Simular pagamento pays from the page alone", async () => {
      const created = await t.call({ method: 'POST', url: '/v2/payment-links', payload: { amountCents: 4_990, description: 'Aula avulsa', paymentMethods: ['PIX', 'BOLETO', 'CREDIT_CARD'], maxInstallments: 3 } });
      assert.equal(created.statusCode, 201, created.body);
      const link = created.json();
      const data = islandOf((await t.app.inject({ method: 'GET', url: `/pay/${link.id}` })).body);
      assert.equal(data.sandbox, true, 'a sandbox link page says so');
      const headers = { origin: PUBLIC_API_URL, 'x-pay-token': data.token };
      const charge = await t.app.inject({ method: 'POST', url: `/pay/${link.id}/intents`, headers, payload: { paymentMethod: 'PIX', buyer: BUYER } });
      assert.equal(charge.statusCode, 201, charge.body);
      const trx = charge.json().payment.transactionId as string;

      assertError(await t.app.inject({ method: 'GET', url: `/pay/${link.id}/transactions/${trx}/receipt` }), 404, 'NOT_FOUND');
      // The simulation is the page's: without its token or from another origin it is refused, and nothing is paid.
      assertError(await t.app.inject({ method: 'POST', url: `/pay/${link.id}/transactions/${trx}/simulate-payment`, headers: { origin: PUBLIC_API_URL } }), 403, 'FORBIDDEN', 'X-Pay-Token');
      assertError(await t.app.inject({ method: 'POST', url: `/pay/${link.id}/transactions/${trx}/simulate-payment`, headers: { ...headers, origin: 'https://evil.example' } }), 403, 'FORBIDDEN', 'Origin');
      const other = await paidPix();
      assertError(await t.app.inject({ method: 'POST', url: `/pay/${link.id}/transactions/${other.id}/simulate-payment`, headers }), 404, 'NOT_FOUND');
      const paid = await t.app.inject({ method: 'POST', url: `/pay/${link.id}/transactions/${trx}/simulate-payment`, headers });
      assert.equal(paid.statusCode, 200, paid.body);
      assert.equal(paid.json().status, 'PAID');

      const receipt = await t.app.inject({ method: 'GET', url: `/pay/${link.id}/transactions/${trx}/receipt` });
      assert.equal(receipt.statusCode, 200, receipt.body);
      assert.equal(receipt.json().url, (await t.dash({ method: 'GET', url: `/transactions/${trx}/receipt` })).json().url, "the buyer's page and the seller open the same receipt");
      // Another link's page cannot ask for this sale's receipt.
      const another = (await t.call({ method: 'POST', url: '/v2/payment-links', payload: { amountCents: 100, description: 'Outro', paymentMethods: ['PIX'] } })).json();
      assertError(await t.app.inject({ method: 'GET', url: `/pay/${another.id}/transactions/${trx}/receipt` }), 404, 'NOT_FOUND');
    });

    test('a link made earlier is shared from the list: GET /payment-links/{id} answers it with its QR code; another company’s is 404', async () => {
      const link = (await t.call({ method: 'POST', url: '/v2/payment-links', payload: { amountCents: 2_000, description: 'Camiseta', paymentMethods: ['PIX'] } })).json();
      const res = await t.dash({ method: 'GET', url: `/payment-links/${link.id}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().url, link.url);
      assert.match(res.json().qrCode, /^data:image\/png;base64,/);
      t.as('admin', otherCompany);
      assertError(await t.dash({ method: 'GET', url: `/payment-links/${link.id}` }), 404, 'NOT_FOUND');
      t.as('admin');
    });
  });
}

for (const engine of engines()) {
  describe(`the hosted page in production on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: { ...productionEnv(), PUBLIC_API_URL } });
    });
    after(() => t.close());

    test('says nothing of a test and has no Simular pagamento route', async () => {
      const created = await t.call({ method: 'POST', url: '/v2/payment-links', payload: { amountCents: 4_990, description: 'Aula', paymentMethods: ['PIX'] } });
      assert.equal(created.statusCode, 201, created.body);
      const page = await t.app.inject({ method: 'GET', url: `/pay/${created.json().id}` });
      const data = islandOf(page.body);
      assert.equal(data.status, 'ACTIVE');
      assert.equal(data.sandbox, undefined);
      const simulate = await t.app.inject({
        method: 'POST',
        url: `/pay/${created.json().id}/transactions/trx_00000000000000000000000000/simulate-payment`,
        headers: { origin: PUBLIC_API_URL, 'x-pay-token': data.token },
      });
      assert.equal(simulate.statusCode, 404, 'no such route in production');
    });
  });
}
