/**
 * The dashboard's search (docs/dashboard.md "Search"): one index per kind of
 * key, so a search over a company with a million sales reads a few index
 * pages. The id, the payment intent's id and the referenceId already have
 * theirs. The buyer's document is stored without punctuation and the e-mail
 * as typed: expression indexes on them need no new column and no backfill.
 * The buyer's name: a GIN index over its words folded (accents and case),
 * its folded words' prefixes (`svc_name_prefixes`: Maria → m, ma, mar, mari,
 * maria), kept in a generated column, so a search for `mar sil` is
 * `name_prefixes @> {mar,sil}`: exact GIN entries intersected, where a
 * tsvector's prefix queries (`mar:* & sil:*`) merge every word under each
 * prefix into a bitmap first (4 to 20 times slower over a million names with
 * common first names). Stored, not an expression index: a common first name
 * is found fastest by reading the newest rows and checking each one's array
 * (transactions/repo.ts), which must cost a comparison, not the function
 * (35 µs a call). PGlite has no unaccent, and lower() only folds ASCII under
 * the C locale, so the accents of Portuguese names are mapped by translate();
 * the function is IMMUTABLE (a generated column may use it) and exists on both
 * engines; transactions/search.ts folds the typed words the same way. Adding
 * the column rewrites the table (about a minute per million rows, writes
 * wait). The dashboard's home sums paid sales by day: (company_id, paid_at)
 * reads only the days it shows. A sale's page shows its events and their
 * deliveries: by transaction and by event.
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
    CREATE FUNCTION svc_name_prefixes(name text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT coalesce(array_agg(DISTINCT left(w, n)), '{}')
      FROM regexp_split_to_table(lower(translate(name, 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖòóôõöÙÚÛÜùúûüÇçÑñÝýÿ', 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyy')), '[^a-z0-9]+') AS w,
        generate_series(1, length(w)) AS n
      WHERE w <> ''
    $$;
    ALTER TABLE transactions ADD COLUMN name_prefixes text[] GENERATED ALWAYS AS (svc_name_prefixes(buyer->>'name')) STORED;
    CREATE INDEX transactions_name_prefixes ON transactions USING gin (name_prefixes);
  `,
  );
}
