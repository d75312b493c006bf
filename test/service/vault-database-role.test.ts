/**
 * The vault on a database role of its own (issue 26), on PostgreSQL with
 * roles made for the test (none a superuser): the migrations run as the
 * API's role, which owns the tables; the vault's start grants its role the
 * vault's tables, and the API's role can then read none of them but the
 * public halves of the keys, and the vault's role reads none of the API's
 * tables (it writes the card acquirer's records), while a card is paid with
 * each side on its own role and the worker's steps run on the API's. One role again gives the
 * privileges back. With a third role owning schema vault (README, "Going
 * live"), the API's role cannot grant itself the tables back, and the vault's
 * start names what its role lacks until the owner grants it.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { JWK } from 'jose';
import { sql } from 'kysely';
import { pino } from 'pino';
import { buildApp, buildServices } from '../../src/app.js';
import { loadConfig, type ConfigReader } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { systemClock } from '../../src/lib/clock.js';
import { hashToken, listPublicKeys } from '../../src/modules/vault/index.js';
import { buildVaultApp } from '../../src/vault-app.js';
import { openRuntime, StartError, type Runtime } from '../../src/runtime.js';
import { workerSteps } from '../../src/workers/worker.js';
import { encryptCard } from '../helpers/app.js';
import { createRolesDatabase, engines, type RolesDatabase } from '../helpers/db.js';
import { cardIntent } from '../helpers/fixtures.js';
import { settled } from '../helpers/outcome.js';

type Json = Record<string, any>;

const silent = pino({ level: 'silent' });
const VAULT_TABLES = ['vault.keys', 'vault.tokens', 'vault.attempts', 'vault.used_jwes', 'vault.card_intents', 'vault.closed_intents'];

/** Rejects with PostgreSQL's "permission denied" (42501). */
const denied = (work: Promise<unknown>, what: string) =>
  assert.rejects(work, (err: { code?: string }) => err.code === '42501', `${what}: permission denied`);

if (engines().includes('postgres')) {
  describe('the vault on a database role of its own (postgres)', () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    const rolesDatabase = async (prefixes: string[]): Promise<RolesDatabase> => {
      const made = await createRolesDatabase(prefixes);
      cleanups.push(made.drop);
      return made;
    };
    const runtimeOf = async (env: Record<string, string>, reader: ConfigReader): Promise<Runtime> => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-vault-role-'));
      const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_PER_SECOND: '100000', ...env }, reader), silent);
      cleanups.push(async () => {
        await runtime.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      });
      return runtime;
    };
    const connect = async (url: string): Promise<Db> => {
      const handle = await openDatabase({ databaseUrl: url, poolSize: 2 });
      cleanups.push(() => handle.close());
      return handle.db;
    };

    test("two roles: the API's role reads none of the vault's tables but the public keys; a card is paid with each side on its own role", async () => {
      const { urls, roles } = await rolesDatabase(['svc_api', 'svc_vault']);
      const [apiUrl, vaultUrl] = urls as [string, string];
      const runtime = await runtimeOf({ DATABASE_URL: apiUrl, VAULT_DATABASE_URL: vaultUrl }, 'serve');
      // What earlier versions granted the vault's role, which its start now takes back.
      await sql`GRANT SELECT ON payment_intents TO ${sql.id(roles[1]!)}`.execute(runtime.database.db);
      const vault = await runtime.vault();
      await vault.keys.ensureCurrent();
      const apiDb = runtime.database.db;

      for (const table of VAULT_TABLES) await denied(sql`SELECT * FROM ${sql.table(table)}`.execute(apiDb), `the API's role reading ${table}`);
      await denied(sql`UPDATE vault.tokens SET cvv_sealed = NULL`.execute(apiDb), "the API's role writing vault.tokens");
      await denied(sql`SELECT private_sealed FROM vault.keys`.execute(apiDb), "the API's role reading the sealed private keys");
      assert.equal((await listPublicKeys(apiDb)).filter((k) => k.current).length, 1, 'the public halves stay readable for card intents');
      await denied(sql`SELECT * FROM api_keys`.execute(vault.db), "the vault's role reading the API's keys");
      await denied(sql`SELECT id FROM payment_intents`.execute(vault.db), "the vault's role reading payment_intents");

      // The API in process on its role, the vault in process on its own.
      const deps = { ...runtime.deps, vault: vault.client };
      const services = buildServices(deps);
      const app = await buildApp(deps, services);
      const vaultApp = await buildVaultApp({ env: runtime.config.env, ...vault, internalKey: deps.internalKey });
      cleanups.push(async () => {
        await app.close();
        await vaultApp.close();
      });
      const company = settled(await services.companies.createCompany('Loja Papéis Ltda', '11222333000181'));
      const { key } = settled(await services.companies.issueKey(company.id));
      const call = (method: 'GET' | 'POST', url: string, payload?: Json, headers: Record<string, string> = {}) =>
        app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...headers }, ...(payload ? { payload } : {}) });
      const tokenizedIntent = async (): Promise<{ intent: Json; token: string }> => {
        const created = await call('POST', '/v2/payment-intents', cardIntent({ referenceId: `roles-${randomUUID()}` }));
        assert.equal(created.statusCode, 201, created.body);
        const intent = created.json<Json>();
        const tokenization = intent.cardTokenization as { ticket: string; encryptionKey: JWK & { kid: string } };
        const card = { number: '4111111111111111', holderName: 'MARIA DA SILVA', expMonth: 12, expYear: 2030, cvv: '739' };
        const res = await vaultApp.inject({
          method: 'POST',
          url: '/tokenize',
          payload: { ticket: tokenization.ticket, keyId: tokenization.encryptionKey.kid, encryptedCard: await encryptCard(tokenization, card) },
        });
        assert.equal(res.statusCode, 201, res.body);
        return { intent, token: res.json<{ token: string }>().token };
      };

      const paid = await tokenizedIntent();
      const confirmed = await call('POST', `/v2/payment-intents/${paid.intent.id}/confirm`, { token: paid.token }, { 'idempotency-key': randomUUID() });
      assert.equal(confirmed.statusCode, 201, confirmed.body);
      assert.equal(confirmed.json().status, 'PAID');
      const spent = await vault.db.selectFrom('vault.tokens').selectAll().where('token_hash', '=', hashToken(paid.token)).executeTakeFirstOrThrow();
      assert.deepEqual([spent.card_sealed, spent.cvv_sealed, spent.last4], [null, null, '1111']);

      // The vault's sweep on its role erases a canceled intent's card; the worker's steps run on the API's role.
      const canceled = await tokenizedIntent();
      assert.equal((await call('POST', `/v2/payment-intents/${canceled.intent.id}/cancel`)).statusCode, 200);
      assert.equal(await vault.sweeper.sweep(new Date()), 1);
      for (const step of workerSteps({ db: apiDb, clock: systemClock, services })) await step.run();

      // One role again (VAULT_DATABASE_URL unset): the vault's start gives the API's role its privileges back.
      const oneRole = await runtimeOf({ DATABASE_URL: apiUrl }, 'vault');
      await oneRole.vault();
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM vault.tokens`.execute(oneRole.database.db);
      assert.equal(rows[0]!.n, 2);
    });

    test("a third role owning schema vault: the API's role cannot take the tables back, and the vault starts once that owner granted its role", async () => {
      const { roles, urls, superuserUrl } = await rolesDatabase(['svc_api', 'svc_vault', 'svc_owner']);
      const [apiRole, vaultRole, ownerRole] = roles as [string, string, string];
      const [apiUrl, vaultUrl, ownerUrl] = urls as [string, string, string];
      await runtimeOf({ DATABASE_URL: apiUrl }, 'api'); // migrates, as the API's role
      // What the operator runs once as a superuser (README, "Going live").
      const superuser = await connect(superuserUrl);
      await sql`ALTER SCHEMA vault OWNER TO ${sql.id(ownerRole)}`.execute(superuser);
      for (const table of VAULT_TABLES) await sql`ALTER TABLE ${sql.table(table)} OWNER TO ${sql.id(ownerRole)}`.execute(superuser);

      const env = { DATABASE_URL: apiUrl, VAULT_DATABASE_URL: vaultUrl };
      await assert.rejects((await runtimeOf(env, 'vault')).vault(), (err: Error) => err instanceof StartError && /lacks .*vault\.tokens: SELECT/.test(err.message));

      // The grants the owner of schema vault gives, and those the API's role gives on its own tables.
      const owner = await connect(ownerUrl);
      await sql`GRANT USAGE ON SCHEMA vault TO ${sql.id(vaultRole)}, ${sql.id(apiRole)}`.execute(owner);
      await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA vault TO ${sql.id(vaultRole)}`.execute(owner);
      await sql`GRANT SELECT (key_id, public_jwk, superseded_at, created_at) ON vault.keys TO ${sql.id(apiRole)}`.execute(owner);
      const api = await connect(apiUrl);
      await sql`GRANT SELECT, INSERT, UPDATE ON acquirer_charges, provider_charges TO ${sql.id(vaultRole)}`.execute(api);

      const vault = await (await runtimeOf(env, 'vault')).vault();
      await vault.keys.ensureCurrent();
      assert.equal((await listPublicKeys(api)).length, 1);
      await denied(sql`GRANT SELECT ON vault.tokens TO ${sql.id(apiRole)}`.execute(api), "the API's role granting itself vault.tokens");
      await denied(sql`SELECT * FROM vault.tokens`.execute(api), "the API's role reading vault.tokens");
    });
  });
}
