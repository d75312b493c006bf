/**
 * The bcb-api-pix connector against a local PSP that serves the API Pix
 * (BCB v2.9.0) over mutual TLS and checks every request and response against
 * the official OpenAPI document: token handling, cob registration and its
 * retry, payments read back from the PSP, withdrawals, devoluções, failures,
 * and the errors check() gives for each misconfiguration.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { ConfigError, type BcbPixConfig, type ProviderChoice } from '../../src/config.js';
import { Agent, request as undiciRequest } from 'undici';
import { ManualClock, systemClock } from '../../src/lib/clock.js';
import { ProviderUnavailable, type ChargeRequest } from '../../src/modules/providers/provider.js';
import { buildProviders, CapabilityNotSupported } from '../../src/modules/providers/index.js';
import { BcbPixProvider } from '../../src/modules/providers/bcb-pix/index.js';
import { claimedEndToEndIds, devedorOf, devolucaoIdOf, txidOf } from '../../src/modules/providers/bcb-pix/mapping.js';
import { centsToDecimal, decimalToCents } from '../../src/lib/money.js';
import { engines, openTestDatabase, type TestDatabase } from '../helpers/db.js';
import { createTestCa, type CertPair, type TestCa } from '../helpers/test-ca.js';
import { startLocalPsp, type LocalPsp } from './local-psp.js';

const CLIENT_ID = 'svc-client';
const CLIENT_SECRET = 'super-secret-client-value-42';
const PIX_KEY = 'pagamentos@example.com';

const trxId = (): string => `trx_${Array.from(randomBytes(26), (b) => '0123456789abcdefghijklmnopqrstuvwxyz'[b % 36]).join('')}`;

describe('bcb-api-pix mapping', () => {
  test('centavos ↔ decimal string round-trips by the digits', () => {
    assert.equal(centsToDecimal(1234), '12.34');
    assert.equal(centsToDecimal(5), '0.05');
    assert.equal(centsToDecimal(100), '1.00');
    assert.equal(decimalToCents('12.34'), 1234);
    assert.equal(decimalToCents('12.3'), undefined);
    assert.equal(decimalToCents('1e3'), undefined);
    assert.throws(() => centsToDecimal(12.5));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), (cents) => {
        const text = centsToDecimal(cents);
        assert.match(text, /^\d{1,10}\.\d{2}$/);
        assert.equal(decimalToCents(text), cents);
      }),
    );
  });

  test('txid, devolução id and devedor', () => {
    const id = 'trx_01jd8x7k2m9q4r5s6t7v8w9x0y';
    assert.equal(txidOf(id), 'trx01jd8x7k2m9q4r5s6t7v8w9x0y');
    assert.match(txidOf(id), /^[a-zA-Z0-9]{26,35}$/);
    assert.throws(() => txidOf('trx_short'));
    assert.equal(devolucaoIdOf('rfd_01jd-8x'), 'rfd01jd8x');
    assert.deepEqual(devedorOf('123.456.789-09', 'Ana'), { cpf: '12345678909', nome: 'Ana' });
    assert.deepEqual(devedorOf('12.345.678/0001-95', 'Loja'), { cnpj: '12345678000195', nome: 'Loja' });
    assert.throws(() => devedorOf('123', 'X'));
  });

  test('notification claims: only well-formed endToEndIds of a {"pix":[…]} body', () => {
    const e2e = 'E12345678202611240101abcdefghijk';
    assert.deepEqual(claimedEndToEndIds({ pix: [{ endToEndId: e2e, txid: 'x', valor: '999999.00' }] }), [e2e]);
    assert.deepEqual(claimedEndToEndIds({ pix: [{ endToEndId: e2e }, { endToEndId: e2e }] }), [e2e]);
    for (const bad of [undefined, null, 'pix', [], {}, { pix: [] }, { pix: {} }, { pix: [{ endToEndId: 'short' }] }, { pix: [{ endToEndId: `${e2e}x` }] }, { pix: [{}] }]) {
      assert.equal(claimedEndToEndIds(bad), undefined, JSON.stringify(bad));
    }
  });
});

for (const engine of engines()) {
  describe(`bcb-api-pix connector against a local PSP (${engine})`, () => {
    let ca: TestCa;
    let psp: LocalPsp;
    let db: TestDatabase;
    let provider: BcbPixProvider;
    let receiver: http.Server;
    const notifications: unknown[] = [];
    const providers: BcbPixProvider[] = [];
    /** Every message thrown at a test, checked at the end for secrets. */
    const messages: string[] = [];

    const configFor = (overrides: Partial<BcbPixConfig> = {}, cert: CertPair = ca.client): BcbPixConfig => ({
      apiUrl: psp.apiUrl,
      oauthUrl: psp.oauthUrl,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      certFile: cert.certFile,
      keyFile: cert.keyFile,
      caFile: undefined,
      pixKey: PIX_KEY,
      webhookUrl: 'https://svc.example.com/v2/webhooks/pix',
      ...overrides,
    });
    const connector = (overrides: Partial<BcbPixConfig> = {}, cert?: CertPair): BcbPixProvider => {
      const p = new BcbPixProvider(configFor(overrides, cert), { db: db.db, clock: systemClock, extraCa: ca.ca });
      providers.push(p);
      return p;
    };
    const rejection = async (promise: Promise<unknown>): Promise<Error> => {
      try {
        await promise;
      } catch (error) {
        assert.ok(error instanceof Error);
        messages.push(error.message);
        return error;
      }
      assert.fail('expected a rejection');
    };
    const charge = (overrides: Partial<ChargeRequest> = {}): ChargeRequest => ({
      reference: `pi_${randomBytes(8).toString('hex')}`,
      transactionId: trxId(),
      method: 'PIX',
      amountCents: 1234,
      buyer: { name: 'Maria da Silva', document: '12345678909' },
      description: 'Pedido 42',
      expiresInSeconds: 900,
      ...overrides,
    });

    before(async () => {
      ca = createTestCa();
      receiver = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          notifications.push({ path: req.url, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      psp = await startLocalPsp({ ca, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, notifyTo: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v2/webhooks/pix`, pageSize: 2 });
      db = await openTestDatabase(engine);
      provider = connector();
    });
    after(async () => {
      for (const p of providers) await p.close();
      await psp?.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await db?.close();
      ca?.remove();
    });

    test('check() fetches a token over mTLS with HTTP Basic and answers a query', async () => {
      const before = psp.tokenRequests;
      assert.match(await provider.check(), /^bcb-api-pix: token accepted, API answered \(https:\/\/127\.0\.0\.1:\d+\/api\/v2\)$/);
      assert.equal(psp.tokenRequests, before + 1);
    });

    test('register: PUT /cob/{txid} with the body of the standard; the token is cached', async () => {
      const tokens = psp.tokenRequests;
      const request = charge({ description: 'x'.repeat(200) });
      const record = await provider.register(request);
      const txid = txidOf(request.transactionId);
      assert.equal(record.providerId, txid);
      assert.equal(record.approved, true);
      assert.equal(record.reference, request.reference);
      assert.ok(record.pix?.qrCode.startsWith('000201'));
      const put = psp.requests.find((r) => r.method === 'PUT' && r.path === `/cob/${txid}`);
      assert.deepEqual(put?.body, {
        calendario: { expiracao: 900 },
        devedor: { cpf: '12345678909', nome: 'Maria da Silva' },
        valor: { original: '12.34' },
        chave: PIX_KEY,
        solicitacaoPagador: 'x'.repeat(140),
      });
      assert.equal(psp.cobs.get(txid)?.pixCopiaECola, record.pix?.qrCode);
      const company = charge({ buyer: { name: 'Loja Ltda', document: '12.345.678/0001-95' } });
      await provider.register(company);
      assert.deepEqual((psp.cobs.get(txidOf(company.transactionId))?.body as { devedor: unknown }).devedor, { cnpj: '12345678000195', nome: 'Loja Ltda' });
      assert.equal(psp.tokenRequests, tokens, 'no token request: the one from check() is cached');
    });

    test('a second register of the same reference sends the same txid and creates no second cob', async () => {
      const request = charge();
      const first = await provider.register(request);
      const cobs = psp.cobs.size;
      // A retry after a crash: even with another transaction id, the first row's txid is sent.
      const again = await provider.register({ ...request, transactionId: trxId() });
      assert.equal(again.providerId, first.providerId);
      assert.equal(again.pix?.qrCode, first.pix?.qrCode);
      assert.equal(psp.cobs.size, cobs);
      assert.equal(psp.requests.filter((r) => r.method === 'PUT' && r.path === `/cob/${first.providerId}`).length, 2);
    });

    test('findCharge reads the cob; an unknown reference is undefined', async () => {
      const request = charge();
      const record = await provider.register(request);
      assert.deepEqual(await provider.findCharge(request.reference), record);
      assert.equal(await provider.findCharge('pi_unknown'), undefined);
    });

    test('a 401 from the API fetches a new token once and retries', async () => {
      const request = charge();
      await provider.register(request);
      const tokens = psp.tokenRequests;
      psp.revokeTokens();
      assert.ok(await provider.findCharge(request.reference));
      assert.equal(psp.tokenRequests, tokens + 1);
      assert.ok(await provider.findCharge(request.reference));
      assert.equal(psp.tokenRequests, tokens + 1);
    });

    test('pay: the notification is claimed, the payment verified with the PSP\'s amount', async () => {
      const request = charge();
      const { providerId: txid } = await provider.register(request);
      assert.deepEqual(await provider.paymentsOf(request.reference), []);
      const e2e = await psp.pay(txid, { amountDecimal: '5.00' });
      assert.match(e2e, /^E12345678\d{12}[a-zA-Z0-9]{11}$/);
      const notification = notifications.at(-1) as { path: string; body: unknown };
      assert.equal(notification.path, '/v2/webhooks/pix');
      assert.deepEqual(provider.notificationClaims(notification.body), [e2e]);
      const payment = await provider.verifyPayment(e2e);
      assert.equal(payment?.reference, request.reference);
      assert.equal(payment?.amountCents, 500);
      assert.ok(payment?.paidAt instanceof Date);
      const of = await provider.paymentsOf(request.reference);
      assert.deepEqual(of.map((p) => [p.paymentId, p.amountCents]), [[e2e, 500]]);
      assert.equal(await provider.verifyPayment('E12345678202611240000zzzzzzzzzzz'), undefined);
      assert.equal(await provider.verifyPayment('not-an-e2eid'), undefined);
    });

    test('a forged notification claims ids the PSP does not know: verifyPayment finds none', async () => {
      const forged = { pix: [{ endToEndId: 'E99999999202611240000ABCDEFGHIJK', txid: 'whatever', valor: '100000.00', horario: new Date().toISOString() }] };
      const claims = provider.notificationClaims(forged);
      assert.deepEqual(claims, ['E99999999202611240000ABCDEFGHIJK']);
      assert.equal(await provider.verifyPayment(claims![0]!), undefined);
      assert.equal(await psp.postNotification(forged, undefined, true), 200);
      // Checked as a genuine one, the forged body breaks the callback schema (its txid is too short): proof the check runs.
      const before = psp.violations.length;
      await psp.postNotification(forged);
      assert.match(psp.violations.splice(before).join(), /^notification: \/pix\/0\/txid/);
    });

    test('paymentsBetween follows the pages and keeps only our charges', async () => {
      const from = new Date(Date.now() - 1000);
      const ours: string[] = [];
      for (let i = 0; i < 3; i++) {
        const request = charge();
        const { providerId } = await provider.register(request);
        ours.push(await psp.pay(providerId, { notify: false }));
      }
      const foreign = charge();
      const { providerId: foreignTxid } = await provider.register(foreign);
      await db.db.deleteFrom('provider_charges').where('reference', '=', foreign.reference).execute();
      const foreignE2e = await psp.pay(foreignTxid, { notify: false });
      const pages = psp.requests.filter((r) => r.path.startsWith('/pix?')).length;
      const payments = await provider.paymentsBetween(from, new Date(Date.now() + 60_000));
      const ids = payments.map((p) => p.paymentId);
      for (const e2e of ours) assert.ok(ids.includes(e2e));
      assert.ok(!ids.includes(foreignE2e));
      assert.ok(payments.filter((p) => ours.includes(p.paymentId)).every((p) => p.amountCents === 1234));
      assert.throws(() => centsToDecimal(1_000_000_000_000), 'more than the standard\'s ten integer digits');
      const asked = psp.requests.filter((r) => r.path.startsWith('/pix?')).slice(pages);
      assert.ok(asked.length >= 2, 'at least four Pix at two a page');
      assert.deepEqual(asked.map((r) => new URLSearchParams(r.path.slice(5)).get('paginacao.paginaAtual')), asked.map((_, i) => String(i)));
      assert.equal(await provider.verifyPayment(foreignE2e), undefined);
    });

    test('cancel withdraws the cob, idempotently; a paid cob cannot be withdrawn', async () => {
      const request = charge();
      const { providerId } = await provider.register(request);
      await provider.cancel(request.reference);
      assert.equal(psp.cobs.get(providerId)?.status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
      await provider.cancel(request.reference);
      assert.equal((await provider.findCharge(request.reference))?.approved, true);
      await provider.cancel('pi_never_registered');
      const paid = charge();
      const { providerId: paidTxid } = await provider.register(paid);
      await psp.pay(paidTxid, { notify: false });
      assert.match((await rejection(provider.cancel(paid.reference))).message, /CONCLUIDA/);
    });

    test('refund: a devolução is PENDING, then SUCCEEDED; a retry answers the same devolução', async () => {
      const request = charge();
      const { providerId } = await provider.register(request);
      const e2e = await psp.pay(providerId, { notify: false });
      const refund = { reference: request.reference, refundId: 'rfd_01jd8xabc', amountCents: 234, paymentId: e2e };
      const asked = await provider.refund(refund);
      assert.equal(asked.status, 'PENDING');
      assert.equal(asked.refundId, 'rfd_01jd8xabc');
      assert.ok(psp.requests.some((r) => r.method === 'PUT' && r.path === `/pix/${e2e}/devolucao/rfd01jd8xabc` && JSON.stringify(r.body) === '{"valor":"2.34"}'));
      assert.equal((await provider.findRefund(refund))?.status, 'SUCCEEDED');
      assert.equal((await provider.refund(refund)).status, 'SUCCEEDED');
      assert.equal(await provider.findRefund({ ...refund, refundId: 'rfd_other' }), undefined);
      await rejection(provider.refund({ ...refund, paymentId: undefined }));
    });

    test('a devolução the PSP could not make is FAILED with its motivo; one above the Pix is refused with the PSP\'s words', async () => {
      const request = charge();
      const { providerId } = await provider.register(request);
      const e2e = await psp.pay(providerId, { notify: false });
      const refund = { reference: request.reference, refundId: 'rfd_01failing', amountCents: 1000, paymentId: e2e };
      psp.refuseRefunds('Conta do pagador encerrada');
      try {
        assert.equal((await provider.refund(refund)).status, 'PENDING');
        assert.deepEqual(await provider.findRefund(refund), { refundId: 'rfd_01failing', status: 'FAILED', providerId: (await provider.findRefund(refund))?.providerId, failureReason: 'Conta do pagador encerrada' });
      } finally {
        psp.refuseRefunds(undefined);
      }
      const tooMuch = await rejection(provider.refund({ ...refund, refundId: 'rfd_01toomuch', amountCents: 99_999 }));
      assert.ok(!(tooMuch instanceof ProviderUnavailable));
      assert.match(tooMuch.message, /400 Devolução inválida\.: A devolução excederia o valor do Pix\./);
    });

    test('registerWebhook sets the PSP\'s webhook; without PIX_WEBHOOK_URL it names the variable', async () => {
      await provider.registerWebhook();
      assert.ok(psp.requests.some((r) => r.method === 'PUT' && r.path === `/webhook/${encodeURIComponent(PIX_KEY)}`));
      const error = await rejection(connector({ webhookUrl: undefined }).registerWebhook());
      assert.match(error.message, /PIX_WEBHOOK_URL/);
    });

    test('a failing PSP is ProviderUnavailable: 503 and a socket closed without an answer', async () => {
      const request = charge();
      await provider.register(request);
      try {
        psp.failing('status503');
        assert.ok((await rejection(provider.register(charge()))) instanceof ProviderUnavailable);
        assert.ok((await rejection(provider.findCharge(request.reference))) instanceof ProviderUnavailable);
        psp.failing('destroy');
        assert.ok((await rejection(provider.findCharge(request.reference))) instanceof ProviderUnavailable);
        assert.ok((await rejection(provider.paymentsBetween(new Date(Date.now() - 60_000), new Date()))) instanceof ProviderUnavailable);
      } finally {
        psp.failing('off');
      }
      assert.ok(await provider.findCharge(request.reference));
    });

    test('a silent PSP times out as ProviderUnavailable', async () => {
      const quick = new BcbPixProvider(configFor(), { db: db.db, clock: systemClock, extraCa: ca.ca }, { timeoutMs: 300 });
      providers.push(quick);
      const request = charge();
      await quick.register(request);
      psp.silent(true);
      try {
        const started = Date.now();
        const error = await rejection(quick.findCharge(request.reference));
        assert.ok(error instanceof ProviderUnavailable, error.message);
        assert.ok(Date.now() - started < 3000);
      } finally {
        psp.silent(false);
      }
    });

    test('concurrent calls share one token request', async () => {
      const fresh = connector();
      const tokens = psp.tokenRequests;
      const requests = [charge(), charge(), charge()];
      await Promise.all(requests.map((r) => fresh.register(r)));
      assert.equal(psp.tokenRequests, tokens + 1);
    });

    test('a PSP that holds its answers: calls that arrive while the token is fetched wait for that one request', async () => {
      const fresh = connector();
      const tokens = psp.tokenRequests;
      const connections = psp.connections;
      psp.delay(100);
      try {
        const requests = Array.from({ length: 8 }, () => charge());
        await Promise.all(requests.map((r) => fresh.register(r)));
      } finally {
        psp.delay(0);
      }
      assert.equal(psp.tokenRequests, tokens + 1);
      assert.ok(psp.connections - connections <= 9, 'one connection per call in flight at most');
    });

    test('check() names the variable to fix', async () => {
      const wrongSecret = await rejection(connector({ clientSecret: 'wrong-secret-value' }).check());
      assert.match(wrongSecret.message, /PIX_CLIENT_ID/);
      assert.match(wrongSecret.message, /PIX_CLIENT_SECRET/);
      assert.ok(!wrongSecret.message.includes('wrong-secret-value'));
      const refusals = psp.tlsRefusals;
      const tokens = psp.tokenRequests;
      const stranger = await rejection(connector({}, ca.stranger).check());
      assert.ok(psp.tlsRefusals > refusals, 'refused in the TLS handshake');
      assert.equal(psp.tokenRequests, tokens, 'no HTTP request got through');
      assert.match(stranger.message, /PIX_CERT_FILE/);
      assert.match(stranger.message, /PIX_KEY_FILE/);
      // Without the PSP's CA, its server certificate is refused before any request (the one TLS context
      // the client builds for all its connections checks the server as per-connection options did).
      const untrusting = new BcbPixProvider(configFor({}), { db: db.db, clock: systemClock });
      providers.push(untrusting);
      const untrusted = await rejection(untrusting.check());
      assert.match(untrusted.message, /not trusted/);
      assert.match(untrusted.message, /PIX_CA_FILE/);
      assert.equal(psp.tokenRequests, tokens, 'no HTTP request got through');
      const nowhere = await rejection(connector({ oauthUrl: 'https://127.0.0.1:1/oauth/token' }).check());
      assert.match(nowhere.message, /PIX_OAUTH_URL/);
      const noApi = await rejection(connector({ apiUrl: 'https://127.0.0.1:1/api/v2' }).check());
      assert.match(noApi.message, /PIX_API_URL/);
    });

    test('unreadable certificate or key files name PIX_CERT_FILE / PIX_KEY_FILE at construction', () => {
      assert.throws(() => connector({ certFile: `${ca.dir}/missing.pem` }), (error: unknown) => error instanceof ConfigError && error.variable === 'PIX_CERT_FILE');
      assert.throws(() => connector({ keyFile: `${ca.dir}/missing.key` }), (error: unknown) => error instanceof ConfigError && error.variable === 'PIX_KEY_FILE');
    });

    test('cards are not this connector\'s: the configuration is refused when read, naming CARD_PROVIDER', () => {
      const choice = { pix: 'bcb-api-pix', boleto: 'disabled', card: 'bcb-api-pix' } as unknown as ProviderChoice;
      assert.throws(
        () => buildProviders({ providers: choice, bcbPix: configFor(), cielo: undefined }, { db: db.db, clock: systemClock, extraCa: ca.ca }),
        (error: unknown) => error instanceof CapabilityNotSupported && error.variable === 'CARD_PROVIDER' && /does not authorize cards/.test(error.message),
      );
      const boleto = { pix: 'disabled', boleto: 'bcb-api-pix', card: 'disabled' } as unknown as ProviderChoice;
      assert.throws(
        () => buildProviders({ providers: boleto, bcbPix: configFor(), cielo: undefined }, { db: db.db, clock: systemClock, extraCa: ca.ca }),
        (error: unknown) => error instanceof CapabilityNotSupported && error.variable === 'BOLETO_PROVIDER',
      );
    });

    test('a token is fetched again a minute before it expires', async () => {
      const clock = new ManualClock(new Date());
      const p = new BcbPixProvider(configFor(), { db: db.db, clock, extraCa: ca.ca });
      providers.push(p);
      const request = charge();
      const tokens = psp.tokenRequests;
      await p.register(request);
      clock.advance(3600_000 - 61_000);
      await p.findCharge(request.reference);
      assert.equal(psp.tokenRequests, tokens + 1);
      clock.advance(2_000);
      await p.findCharge(request.reference);
      assert.equal(psp.tokenRequests, tokens + 2);
    });

    test('the stand-in answers 400 to a request that breaks the document, and records it', async () => {
      const agent = new Agent({ connect: { cert: ca.client.cert, key: ca.client.key, ca: ca.ca } });
      try {
        const form = await undiciRequest(psp.oauthUrl, {
          method: 'POST',
          dispatcher: agent,
          headers: { authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials',
        });
        const { access_token: token } = (await form.body.json()) as { access_token: string };
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const before = psp.violations.length;
        const badCob = await undiciRequest(`${psp.apiUrl}/cob/${txidOf(trxId())}`, { method: 'PUT', dispatcher: agent, headers, body: JSON.stringify({ calendario: { expiracao: 60 }, valor: { original: '12.3' }, chave: PIX_KEY }) });
        assert.equal(badCob.statusCode, 400);
        assert.match(badCob.headers['content-type'] as string, /problem\+json/);
        await badCob.body.dump();
        const badDate = await undiciRequest(`${psp.apiUrl}/pix?inicio=yesterday&fim=2026-11-24T00:00:00Z`, { dispatcher: agent, headers });
        assert.equal(badDate.statusCode, 400);
        await badDate.body.dump();
        const found = psp.violations.splice(before);
        assert.equal(found.length, 2, found.join('\n'));
        assert.match(found[0]!, /PUT \/cob\/\{txid\}.*valor/);
        assert.match(found[1]!, /GET \/pix.*inicio/);
      } finally {
        await agent.close();
      }
    });

    test('no thrown message carries the client secret or a token', () => {
      assert.ok(messages.length >= 10);
      for (const message of messages) {
        assert.ok(!message.includes(CLIENT_SECRET), message);
        for (const token of psp.issuedTokens) assert.ok(!message.includes(token), message);
      }
    });

    test('every request and response matched the OpenAPI document', () => {
      assert.deepEqual(psp.violations, []);
    });
  });
}
