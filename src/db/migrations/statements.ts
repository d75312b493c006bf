import { sql, type Kysely } from 'kysely';

/**
 * Runs a migration script one statement at a time: PGlite's extended protocol,
 * like pg's, takes a single statement per query. Statements are separated by
 * a semicolon at the end of a line; none of ours holds one inside.
 */
export async function runStatements(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}
