/**
 * The Cielo connector against the local Cielo stand-in (real HTTPS, the test
 * CA), on every database engine: cards approved, refused and unanswered
 * (found afterwards, never authorized twice), reversals and refunds, boletos
 * registered once and paid, notifications verified against Cielo, and no
 * secret or card number in any error.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { boletoMerchantOrderIdOf, CieloConnector, CieloError, CieloProvider, merchantOrderIdOf } from '../../src/modules/providers/cielo/index.js';
import { ProviderUnavailable, findChargeRow, type CardAuthorization, type ChargeRequest } from '../../src/modules/providers/index.js';
import { validateDigitableLine, digitableLineToBarcode } from '../../src/modules/boleto/febraban.js';
import type { CieloConfig } from '../../src/config.js';
import { systemClock } from '../../src/lib/clock.js';
import { engines, openTestDatabase, type TestDatabase } from '../helpers/db.js';
import { createTestCa, type TestCa } from '../helpers/test-ca.js';
import { startLocalCielo, type LocalCielo } from './local-cielo.js';

const MERCHANT_ID = randomUUID();
const MERCHANT_KEY = 'KEY-' + randomUUID().replace(/-/g, '').toUpperCase();

/** A reference shaped like ours: prefix, underscore, 26 chars of [0-9a-z]. */
const newReference = (prefix = 'pi'): string => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 26)}`;

const cardAuth = (number: string, overrides: Partial<CardAuthorization> = {}): CardAuthorization => ({
  reference: newReference(),
  amountCents: 12_345,
  installments: 1,
  card: { number, cvv: '123', expMonth: 7, expYear: 2030, holderName: 'MARIA DA SILVA', brand: 'visa', last4: number.slice(-4) },
  ...overrides,
});

const boletoRequest = (overrides: Partial<ChargeRequest> = {}): ChargeRequest => ({
  reference: newReference(),
  transactionId: `tx_${randomUUID().replace(/-/g, '').slice(0, 26)}`,
  method: 'BOLETO',
  amountCents: 25_990,
  buyer: {
    name: 'Maria da Silva',
    document: '52998224725',
    address: { street: 'Rua das Flores', number: '100', neighborhood: 'Centro', city: 'Sao Paulo', state: 'SP', zipCode: '01001-000' },
  },
  description: 'Pedido 42',
  dueDate: '2030-06-15',
  ...overrides,
});

/** Every error message a test saw: none may carry the key or a card number. */
const seenMessages: string[] = [];
async function rejectsWith(promise: Promise<unknown>, check: (err: Error) => boolean): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    seenMessages.push((err as Error).message);
    assert.ok(check(err as Error), `unexpected error: ${(err as Error).name}: ${(err as Error).message}`);
    return err as Error;
  }
  assert.fail('expected a rejection');
}

for (const engine of engines()) {
  describe(`Cielo connector (${engine})`, () => {
    let ca: TestCa;
    let db: TestDatabase;
    let cielo: LocalCielo;
    let provider: CieloProvider;
    let notifications: unknown[];
    let receiver: Server;
    const extra: CieloProvider[] = [];

    const config = (overrides: Partial<CieloConfig> = {}): CieloConfig => ({
      apiUrl: cielo.apiUrl,
      queryUrl: cielo.queryUrl,
      merchantId: MERCHANT_ID,
      merchantKey: MERCHANT_KEY,
      boletoProvider: 'Bradesco2',
      ...overrides,
    });
    const otherProvider = (overrides: Partial<CieloConfig>): CieloProvider => {
      const p = new CieloProvider(config(overrides), { db: db.db, clock: systemClock, extraCa: ca.ca });
      extra.push(p);
      return p;
    };

    before(async () => {
      ca = createTestCa();
      db = await openTestDatabase(engine);
      notifications = [];
      receiver = createServer({ cert: ca.server.cert, key: ca.server.key }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          notifications.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const notifyTo = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/cielo`;
      cielo = await startLocalCielo({ ca, merchantId: MERCHANT_ID, merchantKey: MERCHANT_KEY, notifyTo });
      provider = new CieloProvider(config(), { db: db.db, clock: systemClock, extraCa: ca.ca });
    });
    after(async () => {
      for (const p of [provider, ...extra]) await p.close();
      await cielo.close();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await db.close();
      ca.remove();
    });

    test('MerchantOrderId is the reference without its separator', () => {
      assert.equal(merchantOrderIdOf('pi_01jd8xabcdefghjkmnpqrstvwx'), 'pi01jd8xabcdefghjkmnpqrstvwx');
      assert.throws(() => merchantOrderIdOf('_'), RangeError);
    });

    test('a boleto\'s MerchantOrderId fits its bank: an intent id (28 without its separator) makes 26 for Bradesco, itself for Banco do Brasil', () => {
      const intentId = 'pi_01m8e97ej24q6gaa2y82n9299r';
      assert.equal(boletoMerchantOrderIdOf(intentId, 'Bradesco2'), '01m8e97ej24q6gaa2y82n9299r');
      assert.equal(boletoMerchantOrderIdOf(intentId, 'BancoDoBrasil2'), 'pi01m8e97ej24q6gaa2y82n9299r');
      assert.equal(`pi_${boletoMerchantOrderIdOf(intentId, 'Bradesco2')}`, intentId, 'reversible');
      assert.throws(() => boletoMerchantOrderIdOf(`pi_${'a'.repeat(28)}`, 'Bradesco2'), RangeError);
    });

    test('the stand-in refuses a Bradesco boleto whose MerchantOrderId is over 27 characters; the derived one is registered', async () => {
      const connector = new CieloConnector(config(), { clock: systemClock, extraCa: ca.ca });
      try {
        const req = boletoRequest({ reference: 'pi_01m8e97ej24q6gaa2y82n9299r' });
        await rejectsWith(connector.boleto.registration('pi01m8e97ej24q6gaa2y82n9299r', req)(), (e) => e instanceof CieloError && /longer than 27/.test(e.message));
        const record = await provider.register(req);
        assert.equal(record.approved, true);
        assert.equal(cielo.sale(record.providerId)!.MerchantOrderId, '01m8e97ej24q6gaa2y82n9299r');
        assert.equal((await findChargeRow(db.db, req.reference))?.provider_key, '01m8e97ej24q6gaa2y82n9299r');
        assert.deepEqual(await provider.findCharge(req.reference), record);
      } finally {
        await connector.close();
      }
    });

    test('an approved card: the record carries Cielo PaymentId, brand and last 4', async () => {
      const req = cardAuth('4111111111111111');
      const record = await provider.authorizeCard(req);
      assert.equal(record.approved, true);
      assert.deepEqual(record.card, { brand: 'visa', last4: '1111' });
      const sale = cielo.sales.at(-1)!;
      assert.equal(record.providerId, sale.Payment.PaymentId);
      assert.equal(sale.MerchantOrderId, merchantOrderIdOf(req.reference));
      assert.equal(sale.MerchantOrderId, req.reference.replace('_', ''));
      assert.equal(sale.Payment.Amount, 12_345);
      assert.equal(sale.Payment.CreditCard.Brand, 'Visa');
      assert.equal(sale.Payment.CreditCard.ExpirationDate, '07/2030');
      assert.equal(sale.Payment.Status, 2);
      const row = await findChargeRow(db.db, req.reference);
      assert.equal(row?.provider_id, record.providerId);
      assert.equal(row?.method, 'CREDIT_CARD');
      // Every call is authenticated and tagged with a fresh RequestId.
      const posts = cielo.requests.filter((r) => r.method === 'POST');
      assert.equal(posts.at(-1)!.headers.merchantid, MERCHANT_ID);
      assert.match(String(posts.at(-1)!.headers.requestid), /^[0-9a-f-]{36}$/);
      const ids = new Set(cielo.requests.map((r) => r.headers.requestid));
      assert.equal(ids.size, cielo.requests.length);
      // findCharge answers the same record.
      const found = await provider.findCharge(req.reference);
      assert.equal(found?.providerId, record.providerId);
      assert.equal(found?.approved, true);
      assert.deepEqual(found?.card, { brand: 'visa', last4: '1111' });
    });

    test('refusals carry Cielo ReturnCode and ReturnMessage', async () => {
      const insufficient = await provider.authorizeCard(cardAuth('5555666677770002', { card: { ...cardAuth('5555666677770002').card, brand: 'mastercard' } }));
      assert.equal(insufficient.approved, false);
      assert.equal(insufficient.refusalCode, '51');
      assert.match(insufficient.refusalMessage ?? '', /Sufficient Funds/i);
      assert.equal(cielo.sales.at(-1)!.Payment.CreditCard.Brand, 'Master');
      const expired = await provider.authorizeCard(cardAuth('4111111111110069'));
      assert.equal(expired.approved, false);
      assert.equal(expired.refusalCode, '57');
    });

    test('a silent sale: unavailable, then found approved, and a retry makes no second sale', async () => {
      const req = cardAuth('4111111111110119');
      const started = Date.now();
      await rejectsWith(provider.authorizeCard(req), (err) => err instanceof ProviderUnavailable);
      assert.ok(Date.now() - started < 5_000);
      const orderId = merchantOrderIdOf(req.reference);
      assert.equal(cielo.salesCount(orderId), 1);
      const found = await provider.findCharge(req.reference);
      assert.equal(found?.approved, true);
      assert.equal(found?.providerId, cielo.sales.find((s) => s.MerchantOrderId === orderId)!.Payment.PaymentId);
      assert.deepEqual(found?.card, { brand: 'visa', last4: '0119' });
      const again = await provider.authorizeCard(req);
      assert.equal(cielo.salesCount(orderId), 1);
      assert.deepEqual(again, found);
    });

    test('an unknown reference has no charge', async () => {
      assert.equal(await provider.findCharge(newReference()), undefined);
      assert.equal(await provider.reverse(newReference()), undefined);
    });

    test('reverse voids the sale; twice is the same', async () => {
      const req = cardAuth('4111111111111111');
      const record = await provider.authorizeCard(req);
      const reversed = await provider.reverse(req.reference);
      assert.equal(reversed?.approved, true);
      assert.ok(reversed?.reversedAt);
      assert.equal(cielo.sale(record.providerId)!.Payment.Status, 10);
      assert.equal(cielo.sale(record.providerId)!.Payment.VoidedAmount, req.amountCents);
      const again = await provider.reverse(req.reference);
      assert.ok(again?.reversedAt);
      const found = await provider.findCharge(req.reference);
      assert.ok(found?.reversedAt);
      // A refused sale has nothing to reverse.
      const refused = cardAuth('4111111111110002');
      await provider.authorizeCard(refused);
      const notReversed = await provider.reverse(refused.reference);
      assert.equal(notReversed?.approved, false);
      assert.equal(notReversed?.reversedAt, undefined);
    });

    test('a refund voids an amount', async () => {
      const req = cardAuth('4111111111111111', { amountCents: 10_000 });
      const record = await provider.authorizeCard(req);
      const refundReq = { reference: req.reference, refundId: 'rf_1', amountCents: 4_000 };
      assert.equal(await provider.findRefund(refundReq), undefined);
      const refund = await provider.refund(refundReq);
      assert.equal(refund.status, 'SUCCEEDED');
      assert.equal(refund.providerId, record.providerId);
      assert.equal(cielo.sale(record.providerId)!.Payment.VoidedAmount, 4_000);
      assert.equal(cielo.requests.filter((r) => r.method === 'PUT').at(-1)!.url, `/api/1/sales/${record.providerId}/void?amount=4000`);
      assert.equal((await provider.findRefund(refundReq))?.status, 'SUCCEEDED');
      const second = { reference: req.reference, refundId: 'rf_2', amountCents: 6_000, refundedBeforeCents: 4_000 };
      assert.equal(await provider.findRefund(second), undefined, 'the first refund does not count for the second');
      const rest = await provider.refund(second);
      assert.equal(rest.status, 'SUCCEEDED');
      assert.equal(cielo.sale(record.providerId)!.Payment.Status, 10);
      // Asked again (a retry whose answer was lost): the sale's VoidedAmount already covers it, nothing is voided twice.
      const voids = cielo.requests.filter((r) => r.method === 'PUT').length;
      assert.equal((await provider.refund(second)).status, 'SUCCEEDED');
      assert.equal(cielo.requests.filter((r) => r.method === 'PUT').length, voids);
      assert.equal(cielo.sale(record.providerId)!.Payment.VoidedAmount, 10_000);
      // More than what is left is refused by Cielo.
      await rejectsWith(provider.refund({ reference: req.reference, refundId: 'rf_3', amountCents: 1, refundedBeforeCents: 10_000 }), (err) => /Cielo refused/.test(err.message));
    });

    test('reverse after a partial refund voids what is left', async () => {
      const req = cardAuth('4111111111111111', { amountCents: 9_000 });
      const record = await provider.authorizeCard(req);
      assert.equal((await provider.refund({ reference: req.reference, refundId: 'rf_p', amountCents: 1_000 })).status, 'SUCCEEDED');
      assert.equal((await provider.findCharge(req.reference))?.reversedAt, undefined);
      const reversed = await provider.reverse(req.reference);
      assert.ok(reversed?.reversedAt);
      assert.equal(cielo.sale(record.providerId)!.Payment.Status, 10);
      assert.equal(cielo.sale(record.providerId)!.Payment.VoidedAmount, 9_000);
      assert.equal(cielo.requests.filter((r) => r.method === 'PUT').at(-1)!.url, `/api/1/sales/${record.providerId}/void`);
    });

    test('check: accepted credentials, refused ones name the variables, an unreachable base names its URL', async () => {
      assert.match(await provider.check(), /^cielo: credentials accepted, query answered/);
      const wrongKey = otherProvider({ merchantKey: 'WRONG-' + MERCHANT_KEY });
      const err = await rejectsWith(wrongKey.check(), (e) => /CIELO_MERCHANT_KEY/.test(e.message) && /CIELO_MERCHANT_ID/.test(e.message));
      assert.ok(!err.message.includes(MERCHANT_KEY));
      const unreachable = otherProvider({ queryUrl: 'https://127.0.0.1:1' });
      await rejectsWith(unreachable.check(), (e) => /CIELO_QUERY_URL/.test(e.message));
      const noApi = otherProvider({ apiUrl: 'https://127.0.0.1:1' });
      await rejectsWith(noApi.check(), (e) => /CIELO_API_URL/.test(e.message));
      // Wrong credentials on a sale are a plain error, not an unknown outcome.
      await rejectsWith(wrongKey.authorizeCard(cardAuth('4111111111111111')), (e) => !(e instanceof ProviderUnavailable) && /401/.test(e.message));
    });

    test('a boleto: registered with a valid barcode and line, once per reference', async () => {
      const req = boletoRequest();
      const record = await provider.register(req);
      assert.equal(record.approved, true);
      const sale = cielo.sale(record.providerId)!;
      assert.ok(sale);
      assert.equal(sale.MerchantOrderId, boletoMerchantOrderIdOf(req.reference, 'Bradesco2'));
      assert.ok(sale.MerchantOrderId.length <= 27);
      assert.equal(sale.Payment.Provider, 'Bradesco2');
      assert.equal(sale.Payment.ExpirationDate, '2030-06-15');
      assert.equal(sale.Customer.Identity, '52998224725');
      assert.equal(sale.Customer.IdentityType, 'CPF');
      assert.equal(sale.Customer.Address.District, 'Centro');
      assert.equal(sale.Customer.Address.ZipCode, '01001000');
      assert.match(record.boleto!.digitableLine, /^\d{47}$/);
      assert.deepEqual(validateDigitableLine(record.boleto!.digitableLine), { valid: true });
      assert.equal(digitableLineToBarcode(record.boleto!.digitableLine), record.boleto!.barcode);
      assert.equal(record.boleto!.barcode.slice(9, 19), '0000025990');
      assert.equal(record.boleto!.url, `${new URL(cielo.apiUrl).origin}/boleto/${record.providerId}`);
      const row = await findChargeRow(db.db, req.reference);
      assert.equal(row?.method, 'BOLETO');
      assert.equal(row?.transaction_id, req.transactionId);
      const again = await provider.register(req);
      assert.deepEqual(again, record);
      assert.equal(cielo.salesCount(boletoMerchantOrderIdOf(req.reference, 'Bradesco2')), 1);
      // No address, a CNPJ.
      const company = await provider.register(boletoRequest({ buyer: { name: 'ACME Ltda', document: '11222333000181' } }));
      const companySale = cielo.sale(company.providerId)!;
      assert.equal(companySale.Customer.IdentityType, 'CNPJ');
      assert.equal(companySale.Customer.Address, undefined);
      await provider.cancel(company.reference);
      // A boleto cannot be refunded here.
      await rejectsWith(provider.refund({ reference: req.reference, refundId: 'rf_b', amountCents: 100 }), (e) => /boleto cannot be refunded/.test(e.message));
    });

    test('a paid boleto: paymentsOf and verifyPayment read the amount from Cielo', async () => {
      const req = boletoRequest({ amountCents: 31_000 });
      const record = await provider.register(req);
      assert.deepEqual(await provider.paymentsOf(req.reference), []);
      assert.equal(await provider.verifyPayment(record.providerId), undefined);
      const status = await cielo.payBoleto(record.providerId, { amountCents: 30_500 });
      assert.equal(status, 200);
      const note = notifications.at(-1);
      assert.deepEqual(note, { PaymentId: record.providerId, ChangeType: 1 });
      assert.deepEqual(provider.notificationClaims(note), [record.providerId]);
      const payments = await provider.paymentsOf(req.reference);
      assert.equal(payments.length, 1);
      assert.equal(payments[0]!.paymentId, record.providerId);
      assert.equal(payments[0]!.reference, req.reference);
      assert.equal(payments[0]!.amountCents, 30_500);
      assert.ok(Math.abs(payments[0]!.paidAt.getTime() - Date.now()) < 60_000);
      const verified = await provider.verifyPayment(record.providerId);
      assert.deepEqual(verified, payments[0]);
      assert.deepEqual(await provider.paymentsBetween(new Date(0), new Date()), []);
    });

    test('verifyPayment: an unknown PaymentId, a card sale, a malformed id are nothing', async () => {
      assert.equal(await provider.verifyPayment(randomUUID()), undefined);
      assert.equal(await provider.verifyPayment('../1/sales'), undefined);
      const card = await provider.authorizeCard(cardAuth('4111111111111111'));
      assert.equal(await provider.verifyPayment(card.providerId), undefined);
      // A forged notification claims an id; verification finds nothing.
      const forged = { PaymentId: randomUUID(), ChangeType: 1 };
      assert.equal(await cielo.postNotification(forged), 200);
      const claims = provider.notificationClaims(notifications.at(-1));
      assert.deepEqual(claims, [forged.PaymentId]);
      assert.equal(await provider.verifyPayment(claims![0]!), undefined);
    });

    test('notificationClaims: only a well-formed Cielo body', () => {
      const id = randomUUID();
      assert.deepEqual(provider.notificationClaims({ PaymentId: id, ChangeType: 1 }), [id]);
      assert.deepEqual(provider.notificationClaims({ RecurrentPaymentId: randomUUID(), PaymentId: id, ChangeType: 1 }), [id]);
      for (const bad of [undefined, null, 'x', [], [{ PaymentId: id, ChangeType: 1 }], {}, { PaymentId: 'abc', ChangeType: 1 }, { PaymentId: id }, { paymentId: id, ChangeType: 1 }, { txid: 'x', pix: [] }]) {
        assert.equal(provider.notificationClaims(bad), undefined, JSON.stringify(bad));
      }
    });

    test('a failing Cielo is unavailable, and nothing is charged twice after it', async () => {
      const req = cardAuth('4111111111111111');
      cielo.failing(true);
      try {
        await rejectsWith(provider.authorizeCard(req), (e) => e instanceof ProviderUnavailable);
        await rejectsWith(provider.findCharge(req.reference), (e) => e instanceof ProviderUnavailable);
        await rejectsWith(provider.register(boletoRequest()), (e) => e instanceof ProviderUnavailable);
        await rejectsWith(provider.verifyPayment(randomUUID()), (e) => e instanceof ProviderUnavailable);
      } finally {
        cielo.failing(false);
      }
      // The retry finds no sale (503 created none) and authorizes once.
      const record = await provider.authorizeCard(req);
      assert.equal(record.approved, true);
      assert.equal(cielo.salesCount(merchantOrderIdOf(req.reference)), 1);
    });

    test('a card Cielo refuses to take (its request answered 400) is a refusal: no sale was made', async () => {
      const req = cardAuth('4111111111111111', { card: { ...cardAuth('4111111111111111').card, expMonth: 13 } });
      const record = await provider.authorizeCard(req);
      assert.equal(record.approved, false);
      assert.equal(record.refusalCode, 'request_refused');
      assert.equal(cielo.salesCount(merchantOrderIdOf(req.reference)), 0);
    });

    test('no error message carried the MerchantKey or a card number', () => {
      assert.ok(seenMessages.length >= 8);
      for (const message of seenMessages) {
        assert.ok(!message.includes(MERCHANT_KEY), message);
        // Cielo's PaymentIds are UUIDs, whose last group is all digits one time in ~300: not a card number.
        assert.doesNotMatch(message.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi, '<PaymentId>'), /\d{12,19}/, message);
      }
    });
  });
}
