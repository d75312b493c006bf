import { CompiledQuery } from 'kysely';
import { openDatabase } from '../../dist/db/database.js';
import { searchTransactions } from '../../dist/modules/transactions/repo.js';
import { searchKeys } from '../../dist/modules/transactions/search.js';
const h = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/svc_data_scratch', timeouts: { statementTimeoutMs: 0, queryTimeoutMs: 0 } });
for (const q of process.argv.slice(2)) {
  const c = searchTransactions(h.db, 'cmp_scratch', { limit: 20, search: searchKeys(q) }).select('id').compile();
  for (let i = 0; i < 2; i++) {
    const r = await h.db.executeQuery(CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS) ${c.sql}`, [...c.parameters]));
    if (i === 1) console.log(`---- ${q}\n` + r.rows.map((x) => x['QUERY PLAN']).join('\n'));
  }
}
await h.close();
