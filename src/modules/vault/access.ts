/**
 * Which database role may read the vault's tables (PostgreSQL; the embedded
 * database has one role). The vault may connect as a role of its own
 * (VAULT_DATABASE_URL); the migrations run as DATABASE_URL's role, which owns
 * every table. At each start of the vault, after the migrations and on the
 * owner's connection (so tables a later migration adds are covered too):
 * - a different vault role is granted the vault's tables and what the vault
 *   does in schema public (VAULT_WRITES: it reads none of the API's tables),
 *   loses what an earlier version granted it there (reading payment_intents),
 *   and the owner (the API's and the worker's role) keeps only the public
 *   halves of the keys: it can no longer read a token, a sealed key or a counter;
 * - one role for both gets its privileges back, should an earlier start
 *   with two roles have revoked them;
 * - tables the migrating role does not own (an operator gave the schema to
 *   a third role, README "Going live") are left as granted, and a missing
 *   privilege of the vault's role is reported.
 * An owner can grant itself back what was revoked: against a compromised API
 * this split holds only with the third owner; the sealed card data needs
 * VAULT_MASTER_KEY, which only the vault holds, in any case.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';

/** What earlier versions granted the vault to read in schema public: the vault now learns what it needs from the API's calls (closed-intents.ts). */
const NO_LONGER_READ = ['payment_intents'];
/**
 * What the vault writes in schema public: the card acquirer's records (simulated: acquirer_charges; Cielo:
 * provider_charges), which hold no card data and which the API's worker reads to resolve an unknown outcome
 * (docs/architecture.md, "The vault's boundary").
 */
const VAULT_WRITES = ['acquirer_charges', 'provider_charges'];
/** The columns of vault.keys the API reads for a card intent (keys.listPublicKeys): never the sealed private half. */
const PUBLIC_KEY_COLUMNS = ['key_id', 'public_jwk', 'superseded_at', 'created_at'];
/** Serialises the grants of vault processes starting together (concurrent GRANTs on one table fail). */
const GRANTS_LOCK = 26_0001;

export type VaultAccess =
  | { kind: 'one-role' }
  | { kind: 'granted'; vaultRole: string; ownerRole: string; ownerIsSuperuser: boolean }
  | { kind: 'not-owner'; missing: string[] };

const currentUser = async (db: Db): Promise<string> => (await sql<{ role: string }>`SELECT current_user AS role`.execute(db)).rows[0]!.role;

/** Grants the vault's role its tables (see above); `owner` is a connection as DATABASE_URL's role, `vault` one as the vault's. */
export async function grantVaultAccess(owner: Db, vault: Db): Promise<VaultAccess> {
  const vaultRole = await currentUser(vault);
  return owner.transaction().execute(async (trx): Promise<VaultAccess> => {
    await sql`SELECT pg_advisory_xact_lock(${GRANTS_LOCK})`.execute(trx);
    const { rows } = await sql<{ role: string; owns: boolean; superuser: boolean }>`
      SELECT current_user AS role, pg_has_role(c.relowner, 'MEMBER') AS owns, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'vault' AND c.relname = 'tokens'`.execute(trx);
    const { role: ownerRole, owns, superuser } = rows[0]!;
    if (!owns) return { kind: 'not-owner', missing: await missingPrivileges(trx, vaultRole) };
    const run = (statement: RawBuilder<unknown>) => statement.execute(trx);
    if (ownerRole === vaultRole) {
      await run(sql`GRANT ALL ON ALL TABLES IN SCHEMA vault TO ${sql.id(ownerRole)}`);
      return { kind: 'one-role' };
    }
    const vaultId = sql.id(vaultRole);
    const tables = (names: string[]) => sql.join(names.map((name) => sql.id(name)));
    await run(sql`GRANT USAGE ON SCHEMA vault TO ${vaultId}`);
    await run(sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA vault TO ${vaultId}`);
    await run(sql`REVOKE ALL ON ${tables(NO_LONGER_READ)} FROM ${vaultId}`);
    await run(sql`GRANT SELECT, INSERT, UPDATE ON ${tables(VAULT_WRITES)} TO ${vaultId}`);
    await run(sql`REVOKE ALL ON ALL TABLES IN SCHEMA vault FROM ${sql.id(ownerRole)}, PUBLIC`);
    await run(sql`GRANT SELECT (${tables(PUBLIC_KEY_COLUMNS)}) ON vault.keys TO ${sql.id(ownerRole)}`);
    return { kind: 'granted', vaultRole, ownerRole, ownerIsSuperuser: superuser };
  });
}

/** The privileges the vault's role lacks, as "table: PRIVILEGE" (when a third role owns the schema and grants them). */
async function missingPrivileges(db: Db, vaultRole: string): Promise<string[]> {
  // By catalog ids, not names: the migrating role may have no USAGE on schema vault, whose names it then cannot resolve.
  const { rows } = await sql<{ missing: string }>`
    SELECT 'schema vault: USAGE' AS missing WHERE NOT has_schema_privilege(${vaultRole}, 'vault', 'USAGE')
    UNION ALL
    SELECT n.nspname || '.' || c.relname || ': ' || p.privilege
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      CROSS JOIN LATERAL unnest(string_to_array(CASE WHEN n.nspname = 'vault' THEN 'SELECT,INSERT,UPDATE,DELETE' ELSE 'SELECT,INSERT,UPDATE' END, ',')) AS p(privilege)
     WHERE c.relkind = 'r'
       AND (n.nspname = 'vault' OR (n.nspname = 'public' AND c.relname = ANY (${VAULT_WRITES}::text[])))
       AND NOT has_table_privilege(${vaultRole}, c.oid, p.privilege)`.execute(db);
  return rows.map((r) => r.missing);
}
