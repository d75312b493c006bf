/**
 * The dashboard's sign-in, second pass (issue 35):
 * - `sign_in_failures.kind`: 'password' (sign-ins and the password re-checks
 *   inside a session, 10 lock the e-mail) or 'code' (wrong two-step codes,
 *   counted on their own, 5 lock it); `id`: the attempt that reserved the
 *   row before its password was hashed, so a right password takes back its
 *   own row and nothing else (rows from before have none).
 * - `dashboard_sessions.invitation_hash`: the invitation a half-open session
 *   accepts once its code is given (the membership is made then, not before).
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    ALTER TABLE sign_in_failures ADD COLUMN kind text NOT NULL DEFAULT 'password' CHECK (kind IN ('password', 'code'));
    ALTER TABLE sign_in_failures ADD COLUMN id text;
    DROP INDEX sign_in_failures_email;
    CREATE INDEX sign_in_failures_email ON sign_in_failures (email, kind, at);
    CREATE INDEX sign_in_failures_id ON sign_in_failures (id);

    ALTER TABLE dashboard_sessions ADD COLUMN invitation_hash text;
    `,
  );
}
