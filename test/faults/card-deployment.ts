/**
 * A card-paying deployment for the fault tests: `svc api`, `svc vault` and
 * `svc worker` as separate processes on a fresh PostgreSQL database (the
 * launchers of test/helpers/server.ts), with what the faults need: pausing,
 * killing and restarting the API and the vault on their ports, tokenizing
 * over HTTP as the buyer's page does, recovery run past the idempotency lease,
 * and the invariants of issue 9 (defects 2 and 8) and issue 26 (no card kept
 * once its intent is over) read from the database.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import { sql } from 'kysely';
import { buildServices } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { aesGcmSealer } from '../../src/lib/aes-gcm.js';
import { ManualClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import { buildProviders } from '../../src/modules/providers/index.js';
import { IDEMPOTENCY_LEASE_MS } from '../../src/modules/idempotency/index.js';
import { httpVaultClient } from '../../src/modules/vault/index.js';
import { encryptCard } from '../helpers/app.js';
import { cardIntent } from '../helpers/fixtures.js';
import { apiClient, childEnv, freePort, spawnSvc, startServer, waitUntilReady, withDatabase, type Deployment, type SvcProcess } from '../helpers/server.js';

export type Json = Record<string, any>;

/** One role process that the test may pause, kill and start again on the same port. */
export interface RoleSlot {
  proc: SvcProcess;
  url: string;
  start(): Promise<void>;
  kill(): Promise<void>;
}

export interface CardDeployment {
  deployment: Deployment;
  api: RoleSlot;
  vault: RoleSlot;
  worker: SvcProcess;
  call: ReturnType<typeof apiClient>;
  /** A card intent, tokenized at the vault: what a buyer's page leaves ready to confirm. */
  readyCardIntent(label: string): Promise<{ intent: Json; token: string }>;
  close(): Promise<void>;
}

/** The processes' settings: no tokenize limit (per address, per card) in the way of the trials' many tokenizations. */
const ROLE_ENV = { VAULT_ATTEMPTS_PER_IP_PER_MINUTE: '1000000', VAULT_INTENTS_PER_CARD_PER_HOUR: '1000000', RATE_LIMIT_PER_SECOND: '100000', LOG_LEVEL: 'fatal' };

export async function startCardDeployment(): Promise<CardDeployment> {
  assert.ok(process.env.TEST_DATABASE_URL, 'the fault tests run on PostgreSQL: set TEST_DATABASE_URL');
  // `serve` once creates the demo company, its key and the keys in DATA_DIR; then the roles run apart.
  const first = await startServer({ env: ROLE_ENV });
  await first.stop({ keep: true });
  const deployment = first.deployment;
  const [apiPort, vaultPort] = [await freePort(), await freePort()];
  const vaultUrl = `http://127.0.0.1:${vaultPort}`;
  const env = childEnv(deployment, { ...ROLE_ENV, HOST: '127.0.0.1', PORT: String(apiPort), VAULT_PORT: String(vaultPort), VAULT_INTERNAL_URL: vaultUrl, PUBLIC_VAULT_URL: vaultUrl });
  const slot = (role: 'api' | 'vault', url: string): RoleSlot => {
    const s: RoleSlot = {
      proc: undefined as unknown as SvcProcess,
      url,
      async start() {
        s.proc = spawnSvc([role], env);
        await waitUntilReady(s.proc, url);
      },
      async kill() {
        if (!s.proc.exitInfo()) s.proc.child.kill('SIGKILL');
        await s.proc.exited;
      },
    };
    return s;
  };
  const vault = slot('vault', vaultUrl);
  const api = slot('api', `http://127.0.0.1:${apiPort}`);
  await vault.start();
  await api.start();
  const worker = spawnSvc(['worker'], env);
  const call = apiClient(api.url, first.key);
  return {
    deployment,
    api,
    vault,
    worker,
    call,
    async readyCardIntent(label) {
      const created = await call('/v2/payment-intents', {
        body: cardIntent({ referenceId: `${label}-${randomBytes(4).toString('hex')}` }),
      });
      const intent = (await created.json()) as Json;
      assert.equal(created.status, 201, JSON.stringify(intent));
      const key = intent.cardTokenization.encryptionKey as JWK & { kid: string };
      const card = { number: '4111111111111111', holderName: 'MARIA DA SILVA', expMonth: 12, expYear: 2030, cvv: '739' };
      const encryptedCard = await encryptCard(intent.cardTokenization, card);
      const res = await fetch(`${vaultUrl}/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ticket: intent.cardTokenization.ticket, keyId: key.kid, encryptedCard }),
      });
      const body = (await res.json()) as Json;
      assert.equal(res.status, 201, JSON.stringify(body));
      return { intent, token: body.token as string };
    },
    async close() {
      for (const proc of [api.proc, vault.proc, worker]) {
        if (!proc.exitInfo()) proc.child.kill('SIGKILL');
        await proc.exited;
      }
      await deployment.destroy();
    },
  };
}

/** The worker's recovery of confirmations, run once as if the idempotency lease had run out (it is 60 s). */
export async function recoverPastTheLease(d: CardDeployment): Promise<number> {
  const config = loadConfig(childEnv(d.deployment, {}));
  const sealer = aesGcmSealer(Buffer.from(fs.readFileSync(path.join(d.deployment.dataDir, 'secrets.key'), 'utf8').trim(), 'base64'));
  return withDatabase(d.deployment, async (db) => {
    const clock = new ManualClock(new Date(Date.now() + IDEMPOTENCY_LEASE_MS + 5_000).toISOString());
    const internalKey = randomBytes(32);
    const services = buildServices({ config, db, clock, newId, sealer, internalKey, providers: buildProviders(config, { db, clock }), vault: httpVaultClient(d.vault.url, internalKey, clock) });
    return services.intents.recoverStuckConfirmations(1_000);
  });
}

export interface CardLedger {
  /** Approvals at the acquirer. */
  approved: number;
  reversed: number;
  paid: number;
  /** Approvals that stand with no PAID transaction: money taken for an intent that says otherwise. */
  orphanApprovals: string[];
  /** Tokens still holding a card or a CVV once the vault's sweep has had its time (see cardLedger). */
  cardsLeft: number;
}

/** How long the ledger waits for the vault's sweep (every 5 s) to erase the cards of tokens never spent. */
const SWEEP_WAIT_MS = 15_000;

/**
 * What the acquirer's record, the transactions and the vault say, from the database. Every intent
 * of the trials is over by then: a token the vault never spent (killed or paused before) keeps its
 * card until the vault's next sweep, so the cards are counted once none is left, or after SWEEP_WAIT_MS.
 */
export async function cardLedger(d: CardDeployment): Promise<CardLedger> {
  return withDatabase(d.deployment, async (db) => {
    const cardsLeft = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM vault.tokens WHERE card_sealed IS NOT NULL OR cvv_sealed IS NOT NULL`.execute(db)).rows[0]!.n;
    const until = Date.now() + SWEEP_WAIT_MS;
    let left = await cardsLeft();
    while (left > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      left = await cardsLeft();
    }
    const { rows } = await sql<{ reference: string; approved: boolean; reversed: boolean; paid: boolean }>`
      SELECT c.reference,
             (c.outcome->>'approved')::boolean AS approved,
             c.reversed_at IS NOT NULL AS reversed,
             EXISTS (SELECT 1 FROM transactions t WHERE t.payment_intent_id = c.reference AND t.status = 'PAID') AS paid
        FROM acquirer_charges c WHERE c.method = 'CREDIT_CARD'`.execute(db);
    return {
      approved: rows.filter((r) => r.approved).length,
      reversed: rows.filter((r) => r.reversed).length,
      paid: rows.filter((r) => r.paid).length,
      orphanApprovals: rows.filter((r) => r.approved && !r.reversed && !r.paid).map((r) => r.reference),
      cardsLeft: left,
    };
  });
}
