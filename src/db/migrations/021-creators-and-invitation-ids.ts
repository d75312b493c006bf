/**
 * Who made each API key and webhook registration, and invitations an admin
 * can name (issue 35).
 * - `api_keys.created_by`, `webhooks.created_by`: the dashboard member
 *   (users.id) who created it; NULL for what the operator's CLI or the API
 *   created, and for rows made before this migration. No foreign key: a
 *   user row outlives its memberships, and the column is only shown.
 * - `invitations.id`: an `inv_` id, listed on Equipe and used to revoke a
 *   pending invitation (the token's hash is never shown). Rows made before
 *   this take theirs from their hash's first 26 hex characters.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    ALTER TABLE api_keys ADD COLUMN created_by text;
    CREATE INDEX api_keys_creator ON api_keys (company_id, created_by) WHERE created_by IS NOT NULL;
    ALTER TABLE webhooks ADD COLUMN created_by text;
    CREATE INDEX webhooks_creator ON webhooks (company_id, created_by) WHERE created_by IS NOT NULL;
    ALTER TABLE invitations ADD COLUMN id text;
    UPDATE invitations SET id = 'inv_' || substr(token_hash, 1, 26);
    ALTER TABLE invitations ALTER COLUMN id SET NOT NULL;
    CREATE UNIQUE INDEX invitations_id ON invitations (id);
    CREATE INDEX invitations_company ON invitations (company_id, expires_at);
    `,
  );
}
