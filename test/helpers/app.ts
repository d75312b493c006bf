/**
 * A complete API over a fresh test database, driven with `inject`, with a
 * manual clock so tests move time (expiry, payment windows) without sleeping.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { buildApp, buildServices, type AppDeps, type Services } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { aesGcmSealer } from '../../src/lib/aes-gcm.js';
import { ManualClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import { SimulatedProvider, type CardAcquirer, type ChargeMethod, type PaymentProvider, type Providers } from '../../src/modules/providers/index.js';
import { TEST_CARDS, buildVault, type Vault } from '../../src/modules/vault/index.js';
import { buildVaultApp } from '../../src/vault-app.js';
import type { Resolver, Sender } from '../../src/modules/webhooks/index.js';
import { DEMO } from '../../src/modules/demo/index.js';
import { TEST_SCRYPT, type ScryptParams } from '../../src/modules/users/index.js';
import { runSteps, workerSteps, type Step as WorkerStep } from '../../src/workers/worker.js';
import pino from 'pino';
import { openTestDatabase, type Engine, type TestDatabase } from './db.js';
import { pixIntent } from './fixtures.js';
import { settled } from './outcome.js';

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  clock: ManualClock;
  services: Services;
  deps: AppDeps;
  /** The in-process vault and its HTTP app (/keys, /tokenize, /sdk.js …). */
  vault: Vault;
  vaultApp: FastifyInstance;
  companyId: string;
  companyDocument: string;
  key: string;
  /** inject with the company's key (override headers to change it). */
  call(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** The provider of every method (default: the simulated one), built over the test's database and clock. */
  provider?: (deps: Omit<AppDeps, 'providers' | 'vault'>) => PaymentProvider;
  /** Methods switched off, as with PIX_PROVIDER=disabled and so on. */
  disabled?: ChargeMethod[];
  /** DNS answers for the webhook URL guard (default: every name resolves to a public address). */
  resolve?: Resolver;
  /** Webhook sender (default: real HTTP through the guarded dispatcher). */
  sender?: Sender;
  /** The services' logger (default: none, nothing logged). */
  logger?: AppDeps['logger'];
  /** Randomness of webhook retries' jitter (default: always 0, so retries come exactly on the schedule, as the manual clock reads it). */
  random?: () => number;
  /** scrypt's parameters for dashboard passwords (default: TEST_SCRYPT). */
  passwordParams?: ScryptParams;
}


/** The demo company's documents are reused: a valid CNPJ for the seller, two approved recipients. */
export const SELLER_DOCUMENT = DEMO.company.document;
export const RECIPIENTS = DEMO.accounts.map((a) => a.document);

export async function startTestApp(engine: Engine, opts: TestAppOptions = {}): Promise<TestApp> {
  const db = await openTestDatabase(engine);
  const clock = new ManualClock('2026-11-21T12:00:00.000Z');
  // Every inject comes from one address: the per-address limits are lifted unless a test sets them.
  const config: Config = loadConfig({
    RATE_LIMIT_PER_SECOND: '100000',
    AUTH_FAILURES_PER_IP_PER_MINUTE: '1000000',
    DEMO_PER_IP_PER_MINUTE: '1000000',
    DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '1000000',
    ...opts.env,
  });
  const internalKey = randomBytes(32);
  const base = { config, db: db.db, clock, newId, sealer: aesGcmSealer(randomBytes(32)), internalKey };
  // The configuration's choice of connectors is not used here: every enabled method is served by this provider.
  const acquirer = opts.provider ? opts.provider(base) : new SimulatedProvider(db.db, clock);
  const providers: Providers = {};
  for (const method of ['PIX', 'BOLETO'] as const) if (!opts.disabled?.includes(method)) providers[method] = acquirer;
  // Cards only where the provider authorizes them (a Pix PSP does not: the router would refuse it as CARD_PROVIDER).
  if (!opts.disabled?.includes('CREDIT_CARD') && 'authorizeCard' in acquirer) providers.CREDIT_CARD = acquirer as CardAcquirer;
  // The vault runs in-process here: its in-process client is the API's VaultClient, its app answers /tokenize through inject.
  const vault = buildVault({
    db: db.db,
    clock,
    newId,
    acquirer: providers.CREDIT_CARD,
    masterKey: randomBytes(32),
    internalKey,
    // The manual clock keeps every test in one window, and every test card is the same few numbers:
    // the vault's limits are lifted unless a test sets them.
    attemptsPerIpPerMinute: opts.env?.VAULT_ATTEMPTS_PER_IP_PER_MINUTE ? config.vaultAttemptsPerIpPerMinute : 1_000_000,
    intentsPerCardPerHour: opts.env?.VAULT_INTENTS_PER_CARD_PER_HOUR ? config.vaultIntentsPerCardPerHour : 1_000_000,
  });
  await vault.keys.ensureCurrent();
  const vaultApp = await buildVaultApp({ env: config.env, db: db.db, keys: vault.keys, tokenizer: vault.tokenizer, client: vault.client, internalKey });
  const deps: AppDeps = {
    ...base,
    // Dashboard passwords hashed at 1/128 of OWASP's cost: a sign-in in milliseconds (the default's test is in test/api/dashboard-passwords.test.ts).
    passwordParams: opts.passwordParams ?? TEST_SCRYPT,
    providers,
    vault: vault.client,
    resolve: opts.resolve ?? (async () => ['93.184.216.34']),
    ...(opts.sender ? { sender: opts.sender } : {}),
    ...(opts.logger ? { logger: opts.logger } : {}),
    random: opts.random ?? (() => 0),
  };
  const services = buildServices(deps);
  const app = await buildApp(deps, services);
  const company = settled(await services.companies.createCompany('Loja Teste Ltda', SELLER_DOCUMENT));
  for (const [i, document] of RECIPIENTS.entries()) {
    await services.companies.createAccount(document, `Recipient ${i + 1}`);
    await services.companies.approveAccount(document);
  }
  const { key } = settled(await services.companies.issueKey(company.id));
  return {
    app,
    db,
    clock,
    services,
    deps,
    vault,
    vaultApp,
    companyId: company.id,
    companyDocument: SELLER_DOCUMENT,
    key,
    call: (o) => app.inject({ ...o, headers: { authorization: `Bearer ${key}`, ...(o.headers ?? {}) } }),
    async close() {
      await vaultApp.close();
      await app.close();
      await db.close();
    },
  };
}

/** The environment of a production app: its three required keys, freshly random. */
export function productionEnv(): Record<string, string> {
  const key = () => randomBytes(32).toString('base64');
  // In-process test apps take their provider from the test (startTestApp's `provider`), not from these variables.
  return {
    SVC_ENV: 'production',
    WEBHOOK_SECRETS_KEY: key(),
    VAULT_MASTER_KEY: key(),
    INTERNAL_KEY: key(),
    PIX_PROVIDER: 'disabled',
    CARD_PROVIDER: 'disabled',
    BOLETO_PROVIDER: 'disabled',
  };
}

/** What the hosted fields do: encrypt `card` to the intent's key, bound to its ticket (the JWE's protected header names it). */
export async function encryptCard(tokenization: { ticket: string; encryptionKey: JWK }, card: unknown): Promise<string> {
  const key = tokenization.encryptionKey as JWK & { kid: string };
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(card)))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: key.kid, ticket: tokenization.ticket })
    .encrypt(await importJWK(key, 'RSA-OAEP-256'));
}

/** What the buyer's page does: encrypts a card with an intent's cardTokenization key, posts it to the vault with its ticket; answers the 201 body. */
export async function tokenizeCard(
  t: TestApp,
  tokenization: { ticket: string; encryptionKey: JWK },
  number = '4111111111111111',
): Promise<{ token: string; [field: string]: unknown }> {
  const key = tokenization.encryptionKey as JWK & { kid: string };
  // The sandbox test cards with a 4-digit CVV (Amex) take one of that length.
  const cvv = TEST_CARDS.find((c) => c.number === number)?.cvvLength === 4 ? '7391' : '739';
  const card = { number, holderName: 'MARIA DA SILVA', expMonth: 12, expYear: 2030, cvv };
  const encryptedCard = await encryptCard(tokenization, card);
  const res = await t.vaultApp.inject({ method: 'POST', url: '/tokenize', payload: { ticket: tokenization.ticket, keyId: key.kid, encryptedCard } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

const silentLogger = pino({ level: 'silent' });

/** The worker's steps over this app's database, clock and services. */
export function workerStepsOf(t: TestApp): WorkerStep[] {
  return workerSteps({ db: t.db.db, clock: t.clock, services: t.services });
}

/** One round of the worker: every step once (`steps`: the same steps again, to keep their state). */
export function runWorker(t: TestApp, steps: WorkerStep[] = workerStepsOf(t)): Promise<void> {
  return runSteps(steps, 0, silentLogger);
}

/** Runs the worker step `name` once. */
export async function runWorkerStep(t: TestApp, name: string): Promise<void> {
  const step = workerStepsOf(t).find((s) => s.name === name);
  assert.ok(step, `worker step ${name}`);
  await runSteps([{ ...step, everyTicks: 1 }], 0, silentLogger);
}

/** A confirmed Pix sale through the API; answers the id of its `transaction.created` event. */
export async function pixSaleEvent(t: TestApp): Promise<string> {
  const res = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ confirm: true }) });
  assert.equal(res.statusCode, 201, res.body);
  const transactionId: string = res.json().transaction.id;
  const event = await t.db.db.selectFrom('events').select('id').where('transaction_id', '=', transactionId).executeTakeFirstOrThrow();
  return event.id;
}

/** The types of a transaction's events, sorted by name (whatever the order of their ids). */
export async function eventTypesOf(t: TestApp, transactionId: string): Promise<string[]> {
  const rows = await t.db.db.selectFrom('events').select('type').where('transaction_id', '=', transactionId).execute();
  return rows.map((r) => r.type).sort();
}
