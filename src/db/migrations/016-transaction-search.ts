/**
 * The dashboard's search (docs/dashboard.md "Search"): one index per kind of
 * key, so a search over a company with a million sales reads a few index
 * pages. The id, the payment intent's id and the referenceId already have
 * theirs. The buyer's document is stored without punctuation and the e-mail
 * as typed: expression indexes on them need no new column and no backfill.
 * The buyer's name: a GIN index over its words folded (accents and case),
 * searched by prefix (`maria:* & silv:*`). PGlite has no unaccent, and
 * lower() only folds ASCII under the C locale, so the accents of Portuguese
 * names are mapped by translate(), which is immutable (an index may use it)
 * and exists on both engines. The dashboard's home sums paid sales by day:
 * (company_id, paid_at) reads only the days it shows. A sale's page shows
 * its events and their deliveries: by transaction and by event. transactions/search.ts writes the same
 * expression, character for character, so the planner matches the index.
 */
import type { Kysely } from 'kysely';
import { runStatements } from './statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE INDEX transactions_company_document ON transactions (company_id, (buyer->>'document'), id);
    CREATE INDEX transactions_company_email ON transactions (company_id, lower(buyer->>'email'), id);
    CREATE INDEX transactions_company_paid ON transactions (company_id, paid_at) WHERE paid_at IS NOT NULL;
    CREATE INDEX events_transaction ON events (transaction_id, id);
    CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
    CREATE INDEX transactions_name_words ON transactions USING gin (
      to_tsvector('simple'::regconfig, lower(translate(buyer->>'name', 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖòóôõöÙÚÛÜùúûüÇçÑñÝýÿ', 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyy')))
    );
  `,
  );
}
