/**
 * Production over real HTTP: `svc serve` with SVC_ENV=production, Pix
 * through the local PSP (BCB API Pix over mTLS, every request and answer
 * validated against the BCB's OpenAPI document) and cards and boletos
 * through the local Cielo, both over HTTPS with a test CA.
 *
 *  - a Pix paid through the PSP's notification; a Pix whose notification
 *    is lost, found by reconciliation; a forged notification (unknown
 *    endToEndId) and a payment of the wrong amount change nothing;
 *  - a card approved, refused, and silent-then-found by the merchant-order
 *    query: one sale at Cielo, the transaction PAID;
 *  - a boleto registered at Cielo (its printable URL on the transaction)
 *    and paid through Cielo's notification;
 *  - `svc providers check` proves both connectors, and names the variable
 *    to fix when one is wrong; the simulated provider is refused at start;
 *  - VAULT_MASTER_KEY only where the vault runs: refused by svc api and
 *    svc worker, which start without it; required by svc vault and svc serve.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { JWK } from 'jose';
import { encryptCard } from '../helpers/app.js';
import { boletoIntent, cardIntent, pixIntent } from '../helpers/fixtures.js';
import { apiClient, childEnv, createDeployment, freePort, pollEverySecond, runCli, spawnSvc, waitUntilReady, type Deployment, type SvcProcess } from '../helpers/server.js';
import { createTestCa, type TestCa } from '../helpers/test-ca.js';
import { startLocalCielo, type LocalCielo } from '../providers/local-cielo.js';
import { pixProviderEnv, startLocalPsp, type LocalPsp } from '../providers/local-psp.js';

type Json = Record<string, any>;

const PSP_CLIENT = { clientId: 'svc-e2e', clientSecret: `psp-${randomUUID()}`, pixKey: '11222333000181' };
const CIELO_MERCHANT = { merchantId: randomUUID(), merchantKey: randomBytes(30).toString('base64url').slice(0, 40) };
const key32 = () => randomBytes(32).toString('base64');

/** A production environment (its three keys) whose Pix goes to the local PSP with the client certificate it trusts. */
function productionWithPsp(ca: TestCa, psp: LocalPsp): Record<string, string> {
  return { SVC_ENV: 'production', WEBHOOK_SECRETS_KEY: key32(), VAULT_MASTER_KEY: key32(), INTERNAL_KEY: key32(), ...pixProviderEnv(psp, ca, PSP_CLIENT) };
}

describe('production through the local PSP and the local Cielo', () => {
  let ca: TestCa;
  let psp: LocalPsp;
  let cielo: LocalCielo;
  let deployment: Deployment;
  let svc: SvcProcess;
  let env: Record<string, string>;
  let api: ReturnType<typeof apiClient>;
  let url: string;
  let vaultUrl: string;

  before(async () => {
    ca = createTestCa();
    const [port, vaultPort] = [await freePort(), await freePort()];
    url = `http://127.0.0.1:${port}`;
    vaultUrl = `http://127.0.0.1:${vaultPort}`;
    // The service listens on plain http here: the providers post straight to it, as a TLS proxy in front would.
    psp = await startLocalPsp({ ca, ...PSP_CLIENT, notifyTo: `${url}/v2/provider-notifications/bcb-api-pix/pix` });
    cielo = await startLocalCielo({ ca, ...CIELO_MERCHANT, notifyTo: `${url}/v2/provider-notifications/cielo` });
    env = {
      ...productionWithPsp(ca, psp),
      PIX_WEBHOOK_URL: `https://127.0.0.1:${port}/v2/provider-notifications/bcb-api-pix`,
      CARD_PROVIDER: 'cielo',
      BOLETO_PROVIDER: 'cielo',
      CIELO_API_URL: cielo.apiUrl,
      CIELO_QUERY_URL: cielo.queryUrl,
      CIELO_MERCHANT_ID: CIELO_MERCHANT.merchantId,
      CIELO_MERCHANT_KEY: CIELO_MERCHANT.merchantKey,
      CIELO_BOLETO_PROVIDER: 'Bradesco2',
      // Cielo has no CA setting: its certificate is public; the test CA is trusted the Node way.
      NODE_EXTRA_CA_CERTS: ca.caFile,
      RECONCILE_INTERVAL_SECONDS: '1',
      HOST: '127.0.0.1',
      PORT: String(port),
      VAULT_PORT: String(vaultPort),
      PUBLIC_VAULT_URL: vaultUrl,
      VAULT_INTERNAL_URL: vaultUrl,
    };
    deployment = await createDeployment();
    // The operator's first steps (before the server: the embedded database has one process at a time).
    const company = await runCli(deployment, ['company', 'create', '--name', 'Loja Real Ltda', '--document', '11222333000181', '--json'], env);
    assert.equal(company.code, 0, company.stderr);
    const issued = await runCli(deployment, ['key', 'issue', '--company', (company.json as Json).id, '--json'], env);
    assert.equal(issued.code, 0, issued.stderr);
    svc = spawnSvc(['serve'], childEnv(deployment, env));
    await waitUntilReady(svc, url);
    api = apiClient(url, (issued.json as Json).key);
  });

  after(async () => {
    await svc?.stop();
    await deployment?.destroy();
    await psp?.close();
    await cielo?.close();
    ca?.remove();
  });

  const create = async (payload: Json): Promise<Json> => {
    const res = await api('/v2/payment-intents', { headers: { 'idempotency-key': randomUUID() }, body: payload });
    const body = (await res.json()) as Json;
    assert.equal(res.status, 201, JSON.stringify(body));
    return body;
  };
  const transaction = async (id: string): Promise<Json> => (await (await api(`/v2/transactions/${id}`)).json()) as Json;
  const events = async (id: string): Promise<string[]> => {
    const res = await api(`/v2/events?limit=100`);
    const list = ((await res.json()) as Json).data as Json[];
    return list.filter((e) => e.data.transaction.id === id).map((e) => e.type).sort();
  };
  const pixSale = async (amountCents: number): Promise<Json> => (await create(pixIntent({ amountCents, confirm: true, referenceId: `e2e-${randomUUID()}` }))).transaction;
  const txidOf = (transactionId: string) => transactionId.replace('_', '');
  /** The transaction once PAID, or as it is after `ms`. */
  const paidWithin = async (id: string, ms: number): Promise<Json> => {
    await pollEverySecond(async () => (await transaction(id)).status === 'PAID', ms);
    return transaction(id);
  };

  test('the API registered its Pix webhook at the PSP when it started', async () => {
    const registrations = () => psp.requests.filter((r) => r.method === 'PUT' && r.path.startsWith('/webhook/'));
    await pollEverySecond(async () => registrations().length > 0, 10_000);
    const registered = registrations();
    assert.equal(registered.length, 1);
    assert.deepEqual(registered[0]!.body, { webhookUrl: env.PIX_WEBHOOK_URL });
  });

  test('a Pix registered at the PSP and paid through its notification: PAID once, transaction.paid once', async () => {
    const trx = await pixSale(15_990);
    const cob = psp.cobs.get(txidOf(trx.id));
    assert.ok(cob, 'the cob is the transaction id without its underscore');
    assert.equal((cob.body.valor as Json).original, '159.90');
    assert.equal(trx.paymentDetails.pix.qrCode, cob.pixCopiaECola, "the buyer pays the PSP's copia e cola");
    assert.ok(trx.paymentDetails.pix.qrCodeImageBase64.length > 100);
    await psp.pay(txidOf(trx.id));
    const paid = await paidWithin(trx.id, 15_000);
    assert.equal(paid.status, 'PAID');
    assert.deepEqual(await events(trx.id), ['transaction.created', 'transaction.paid']);
  });

  test('a Pix whose notification was lost is found by reconciliation', async () => {
    const trx = await pixSale(4_321);
    await psp.pay(txidOf(trx.id), { notify: false });
    const paid = await paidWithin(trx.id, 20_000);
    assert.equal(paid.status, 'PAID');
    assert.deepEqual(await events(trx.id), ['transaction.created', 'transaction.paid']);
  });

  test('a forged notification (unknown endToEndId) and a payment of the wrong amount change nothing', async () => {
    const forged = await pixSale(7_000);
    const status = await psp.postNotification({ pix: [{ endToEndId: `E00000000${'2026112412000'}${randomBytes(5).toString('hex')}`.slice(0, 32), txid: txidOf(forged.id), valor: '70.00', horario: new Date().toISOString() }] });
    assert.equal(status, 200);
    const short = await pixSale(8_000);
    await psp.pay(txidOf(short.id), { amountDecimal: '1.00' });
    // Longer than a notification takes to be verified, and than a reconciliation round.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    assert.equal((await transaction(forged.id)).status, 'PENDING');
    assert.equal((await transaction(short.id)).status, 'PENDING');
    assert.deepEqual(await events(short.id), ['transaction.created']);
  });

  /** A card intent tokenized at the vault, as the hosted fields would, then confirmed. */
  const cardSale = async (number: string): Promise<{ status: number; body: Json; intent: Json }> => {
    const intent = await create(cardIntent({ referenceId: `card-${randomUUID()}`, amountCents: 25_000 }));
    const tokenization = intent.cardTokenization as { ticket: string; encryptionKey: JWK & { kid: string } };
    const encryptedCard = await encryptCard(tokenization, { number, holderName: 'MARIA DA SILVA', expMonth: 12, expYear: 2030, cvv: '739' });
    const tokenized = await fetch(`${vaultUrl}/tokenize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ticket: tokenization.ticket, keyId: tokenization.encryptionKey.kid, encryptedCard }),
    });
    assert.equal(tokenized.status, 201, await tokenized.clone().text());
    const { token } = (await tokenized.json()) as Json;
    const res = await api(`/v2/payment-intents/${intent.id}/confirm`, { headers: { 'idempotency-key': randomUUID() }, body: { token } });
    return { status: res.status, body: (await res.json()) as Json, intent };
  };
  const merchantOrderIdOf = (intentId: string) => intentId.replace('_', '');

  test('a card approved at Cielo is PAID; one refused is FAILED with its refusal', async () => {
    const approved = await cardSale('4111111111111111');
    assert.equal(approved.status, 201, JSON.stringify(approved.body));
    assert.equal(approved.body.status, 'PAID');
    assert.deepEqual(approved.body.paymentDetails.card, { brand: 'visa', last4: '1111' });
    assert.equal(cielo.salesCount(merchantOrderIdOf(approved.intent.id)), 1);
    const refused = await cardSale('4111113111110002');
    assert.equal(refused.status, 201, JSON.stringify(refused.body));
    assert.equal(refused.body.status, 'FAILED');
    assert.equal(refused.body.paymentDetails.card.refusalCode, '51');
  });

  test('a card whose authorization went unanswered is found by the merchant-order query: one sale, PAID', async () => {
    const silent = await cardSale('4111113111110119');
    assert.equal(silent.status, 201, JSON.stringify(silent.body));
    assert.equal(silent.body.status, 'PAID');
    assert.equal(cielo.salesCount(merchantOrderIdOf(silent.intent.id)), 1, 'never a second authorization');
  });

  test("a boleto registered at Cielo carries the bank's line and printable URL, and is paid through Cielo's notification", async () => {
    const trx = (await create(boletoIntent({ amountCents: 12_000, confirm: true, referenceId: `bol-${randomUUID()}` }))).transaction;
    const boleto = trx.paymentDetails.boleto;
    assert.match(boleto.digitableLine, /^\d{47}$/);
    assert.match(boleto.barcode, /^\d{44}$/);
    const paymentId = /\/boleto\/([0-9a-f-]{36})$/.exec(boleto.url)?.[1];
    assert.ok(paymentId, boleto.url);
    assert.equal(cielo.sale(paymentId)?.Payment.Provider, 'Bradesco2');
    await cielo.payBoleto(paymentId);
    const paid = await paidWithin(trx.id, 15_000);
    assert.equal(paid.status, 'PAID');
    assert.deepEqual(await events(trx.id), ['transaction.created', 'transaction.paid']);
  });

  test('the PSP saw only requests the BCB standard allows, and answered only what it defines', () => {
    assert.deepEqual(psp.violations, []);
  });
});

describe('operators: svc providers check, and the simulated provider refused in production', () => {
  test('providers check names the connector of each method and the variable to fix', async () => {
    const ca = createTestCa();
    const psp = await startLocalPsp({ ca, ...PSP_CLIENT });
    const deployment = await createDeployment();
    try {
      const env = {
        ...productionWithPsp(ca, psp),
        CARD_PROVIDER: 'disabled',
        BOLETO_PROVIDER: 'disabled',
      };
      const good = await runCli(deployment, ['providers', 'check', '--json'], env);
      assert.equal(good.code, 0, good.stdout + good.stderr);
      const checks = good.json as Json[];
      assert.deepEqual(checks.map((c) => [c.method, c.provider, c.ok]), [['PIX', 'bcb-api-pix', true], ['CREDIT_CARD', 'disabled', true], ['BOLETO', 'disabled', true]]);
      const wrongSecret = await runCli(deployment, ['providers', 'check'], { ...env, PIX_CLIENT_SECRET: 'wrong' });
      assert.equal(wrongSecret.code, 1);
      assert.match(wrongSecret.stdout, /PIX FAIL|PIX\s+bcb-api-pix\s+FAIL/);
      assert.match(wrongSecret.stdout, /PIX_CLIENT_SECRET|PIX_CLIENT_ID/);
      assert.ok(!wrongSecret.stdout.includes(PSP_CLIENT.clientSecret), 'no secret is printed');
      const stranger = await runCli(deployment, ['providers', 'check'], { ...env, PIX_CERT_FILE: ca.stranger.certFile, PIX_KEY_FILE: ca.stranger.keyFile });
      assert.equal(stranger.code, 1);
      assert.match(stranger.stdout, /PIX_CERT_FILE|PIX_KEY_FILE/);
    } finally {
      await deployment.destroy();
      await psp.close();
      ca.remove();
    }
  });

  test('SVC_ENV=production on the embedded database starts with a warning that a power loss can lose payments; the CLI keeps it off stdout', async () => {
    const embedded = await createDeployment({ engine: 'pglite' });
    const off = { PIX_PROVIDER: 'disabled', BOLETO_PROVIDER: 'disabled', CARD_PROVIDER: 'disabled' };
    const env = { SVC_ENV: 'production', WEBHOOK_SECRETS_KEY: key32(), VAULT_MASTER_KEY: key32(), INTERNAL_KEY: key32(), ...off };
    try {
      const created = await runCli(embedded, ['company', 'create', '--name', 'Loja Teste', '--document', '11222333000181', '--json'], env);
      assert.equal(created.code, 0, created.stderr);
      assert.equal((created.json as Json).name, 'Loja Teste', 'stdout holds only the answer');
      assert.match(created.stderr, /embedded database: a power loss can lose or corrupt recent payments; set DATABASE_URL/);
      const port = await freePort();
      const proc = spawnSvc(['serve'], childEnv(embedded, { ...env, HOST: '127.0.0.1', PORT: String(port), VAULT_PORT: String(await freePort()) }));
      try {
        await waitUntilReady(proc, `http://127.0.0.1:${port}`);
        assert.match(proc.output(), /embedded database: a power loss can lose or corrupt recent payments/);
      } finally {
        await proc.stop();
      }
    } finally {
      await embedded.destroy();
    }
  });

  test('SVC_ENV=production with a method left on the simulated provider does not start, naming the variable', async () => {
    const deployment = await createDeployment({ migrated: false });
    try {
      const env = { SVC_ENV: 'production', WEBHOOK_SECRETS_KEY: key32(), VAULT_MASTER_KEY: key32(), INTERNAL_KEY: key32(), PIX_PROVIDER: 'disabled', BOLETO_PROVIDER: 'disabled' };
      const proc = spawnSvc(['serve'], childEnv(deployment, env));
      const exit = await proc.exited;
      assert.equal(exit.code, 78);
      assert.match(proc.stderr(), /CARD_PROVIDER: the simulated provider moves no money/);
    } finally {
      await deployment.destroy();
    }
  });

  test('VAULT_MASTER_KEY is the vault\'s alone: svc api and svc worker refuse it and start without it, svc vault and svc serve do not start without it', async () => {
    const deployment = await createDeployment();
    const off = { PIX_PROVIDER: 'disabled', CARD_PROVIDER: 'disabled', BOLETO_PROVIDER: 'disabled' };
    const env = { SVC_ENV: 'production', WEBHOOK_SECRETS_KEY: key32(), INTERNAL_KEY: key32(), HOST: '127.0.0.1', ...off };
    try {
      const exitOf = async (role: string, extra: Record<string, string>) => {
        const proc = spawnSvc([role], childEnv(deployment, { ...env, ...extra }));
        return { exit: await proc.exited, stderr: proc.stderr() };
      };
      for (const role of ['api', 'worker']) {
        const { exit, stderr } = await exitOf(role, { VAULT_MASTER_KEY: key32() });
        assert.equal(exit.code, 78, stderr);
        assert.match(stderr, new RegExp(`VAULT_MASTER_KEY: is read only by svc vault and svc serve; remove it from the environment of svc ${role}`));
      }
      for (const role of ['vault', 'serve']) {
        const { exit, stderr } = await exitOf(role, {});
        assert.equal(exit.code, 78, stderr);
        assert.match(stderr, /VAULT_MASTER_KEY: is required in production/);
      }
      const port = await freePort();
      const api = spawnSvc(['api'], childEnv(deployment, { ...env, PORT: String(port) }));
      try {
        await waitUntilReady(api, `http://127.0.0.1:${port}`);
      } finally {
        await api.stop();
      }
    } finally {
      await deployment.destroy();
    }
  });
});
