// Part "dashboard" (issues 27 and 35): the dashboard's search, home and CSV export over
// one company with BENCH_DASHBOARD_ROWS transactions (default 1,000,000) on PostgreSQL.
//
// The rows are made by three INSERT … SELECT generate_series (the payment intents, their
// transactions, the paid ones' receivables): names drawn from lists of Brazilian first
// and last names (a first name is shared by 1 row in 40, so a one-word search matches
// 25,000 rows of a million), a CPF, an e-mail and a referenceId each of their own. 7 in
// 10 are paid Pix sales, each with its receivable line (D+1, settled once that day has
// come); the rest are canceled, but for those of the last 24 hours, still PENDING (an
// unpaid Pix or boleto is canceled by the expiry worker when its window closes). The
// daily totals (migration 022) are then rebuilt by the migration's own backfill, as an
// upgrade over existing rows would. Then VACUUM ANALYZE.
// The API runs in this process (dist/, built by `npm run bench`), listening on
// loopback; an admin signs in once and every request carries the session cookie,
// so each pays the session guard's query as a person's would. Requests go over
// HTTP through undici.
//   search  p50/p95 of GET /dashboard/api/transactions?q=… per kind of key, one request
//           at a time, each for another row
//   home    p50/p95 of GET /dashboard/api/home, HOME_REQUESTS one at a time, its sums
//           checked once against a direct count over the rows
//   export  GET /dashboard/api/transactions.csv?format=rfc4180 of every row, read and dropped as it
//           comes: rows per second, and this process's RSS sampled every 100 ms
import crypto from 'node:crypto';
import { Pool } from 'undici';
import { buildApp, buildServices } from '../../dist/app.js'; // npm run bench builds dist first
import { loadConfig } from '../../dist/config.js';
import { migrate, openDatabase } from '../../dist/db/database.js';
import { BACKFILL_DAILY_TOTALS } from '../../dist/db/migrations/022-daily-totals.js';
import { aesGcmSealer } from '../../dist/lib/aes-gcm.js';
import { systemClock } from '../../dist/lib/clock.js';
import { newId } from '../../dist/lib/ids.js';
import { createDatabase, fmt, onCleanup, percentile } from './lib.mjs';

const FIRST = ['Maria', 'José', 'Ana', 'João', 'Antônio', 'Francisca', 'Carlos', 'Paulo', 'Adriana', 'Lucas', 'Juliana', 'Márcia', 'Fernanda', 'Pedro', 'Patrícia', 'Aline', 'Sandra', 'Camila', 'Luiz', 'Gabriel', 'Bruna', 'Rafael', 'Letícia', 'Daniel', 'Marcos', 'Luís', 'Amanda', 'Vitória', 'Rodrigo', 'Júlia', 'Beatriz', 'Mateus', 'Larissa', 'Gustavo', 'Sebastião', 'Raimunda', 'Cláudia', 'Eduardo', 'Vinícius', 'Conceição'];
const LAST = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa', 'Rocha', 'Dias', 'Nascimento', 'Andrade', 'Moreira', 'Nunes', 'Marques', 'Machado', 'Mendes', 'Freitas', 'Cardoso', 'Ramos', 'Gonçalves', 'Santana', 'Teixeira', 'Araújo', 'Pinto', 'Correia', 'Cavalcanti', 'Monteiro', 'Moura', 'Batista', 'Campos', 'Farias', 'Reis', 'Macedo', 'Azevedo', 'Brandão', 'Mota', 'Xavier'];
/** Home requests timed (each a handful of index reads, whatever the rows). */
const HOME_REQUESTS = 200;
const sqlArray = (list) => `(ARRAY[${list.map((s) => `'${s}'`).join(',')}])`;

/** The name of row g, as the INSERT below writes it (first, middle and last names from the lists). */
const nameOf = (g) => [FIRST[g % FIRST.length], LAST[Math.floor(g / FIRST.length) % LAST.length], LAST[Math.floor(g / 7) % LAST.length]];
const idOf = (prefix, g) => `${prefix}_${String(g).padStart(26, '0')}`;
const cpfOf = (g) => String(10_000_000_000 + g * 7).padStart(11, '0');
const punctuated = (d) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;

async function seed(db, sql, companyId, rows) {
  const started = performance.now();
  const name = `${sqlArray(FIRST)}[1 + g % ${FIRST.length}] || ' ' || ${sqlArray(LAST)}[1 + (g / ${FIRST.length}) % ${LAST.length}] || ' ' || ${sqlArray(LAST)}[1 + (g / 7) % ${LAST.length}]`;
  const buyer = `jsonb_build_object('name', ${name}, 'document', lpad((10000000000 + g * 7)::text, 11, '0'), 'email', 'cliente' || g || '@example.com')`;
  const at = `now() - (${rows} - g) * interval '1 second'`;
  await sql.raw(`
    INSERT INTO payment_intents (id, company_id, status, amount_cents, payment_method, installments, reference_id, buyer, expires_at, transaction_id, created_at, updated_at)
    SELECT 'pi_' || lpad(g::text, 26, '0'), '${companyId}', 'SUCCEEDED', 1000 + g % 50000, 'PIX', 1, 'pedido-' || g, ${buyer}, ${at}, 'trx_' || lpad(g::text, 26, '0'), ${at}, ${at}
    FROM generate_series(1, ${rows}) AS g`).execute(db);
  await sql.raw(`
    INSERT INTO transactions (id, company_id, payment_intent_id, status, payment_method, installments, amount_cents, fee_cents, net_amount_cents, reference_id, buyer, payment_details, paid_at, created_at, updated_at)
    SELECT 'trx_' || lpad(g::text, 26, '0'), '${companyId}', 'pi_' || lpad(g::text, 26, '0'),
      CASE WHEN g % 10 < 7 THEN 'PAID' WHEN g % 10 < 9 AND g > ${rows} - 86400 THEN 'PENDING' ELSE 'CANCELED' END,
      'PIX', 1, 1000 + g % 50000, CASE WHEN g % 10 < 7 THEN 99 ELSE 0 END, CASE WHEN g % 10 < 7 THEN 1000 + g % 50000 - 99 ELSE 0 END,
      'pedido-' || g, ${buyer}, '{}'::jsonb, CASE WHEN g % 10 < 7 THEN ${at} END, ${at}, ${at}
    FROM generate_series(1, ${rows}) AS g`).execute(db);
  // The paid sales' receivable lines: the seller's, D+1 (São Paulo calendar), settled once that day has come.
  const day = `(t.paid_at AT TIME ZONE 'America/Sao_Paulo')::date + 1`;
  const today = `(now() AT TIME ZONE 'America/Sao_Paulo')::date`;
  await sql.raw(`
    INSERT INTO receivables (id, company_id, transaction_id, recipient_document, role, installment, position, gross_amount_cents, fee_cents, amount_cents, expected_on, status, paid_at, created_at)
    SELECT 'rcv_' || substr(t.id, 5), t.company_id, t.id, '11222333000181', 'SELLER', 1, 0, t.amount_cents, t.fee_cents, t.net_amount_cents, ${day},
      CASE WHEN ${day} <= ${today} THEN 'PAID' ELSE 'PENDING' END,
      CASE WHEN ${day} <= ${today} THEN (${day})::timestamp AT TIME ZONE 'America/Sao_Paulo' + interval '6 hours' END, t.paid_at
    FROM transactions t WHERE t.company_id = '${companyId}' AND t.status = 'PAID'`).execute(db);
  await sql.raw('DELETE FROM daily_totals').execute(db);
  await sql.raw(BACKFILL_DAILY_TOTALS).execute(db);
  // As autovacuum would have by then: statistics, and the GIN index's pending list merged (a search scans
  // what is still pending, ~10 ms right after a million inserts).
  for (const table of ['payment_intents', 'transactions', 'receivables', 'daily_totals']) await sql.raw(`VACUUM ANALYZE ${table}`).execute(db);
  return (performance.now() - started) / 1000;
}

export async function benchDashboard({ rows, searches }) {
  const { url } = await createDatabase('dashboard');
  const { sql } = await import('kysely');
  const handle = await openDatabase({ databaseUrl: url, timeouts: { statementTimeoutMs: 0, queryTimeoutMs: 0 } });
  onCleanup(() => handle.close());
  await migrate(handle.db);
  // One session makes every request, thousands a minute: its per-session limit is lifted.
  const config = loadConfig({ DATABASE_URL: url, PUBLIC_API_URL: 'http://127.0.0.1', DASHBOARD_REQUESTS_PER_SESSION_PER_MINUTE: '1000000' });
  const internalKey = crypto.randomBytes(32);
  const deps = {
    config,
    db: handle.db,
    clock: systemClock,
    newId,
    providers: {},
    sealer: aesGcmSealer(crypto.randomBytes(32)),
    internalKey,
    vault: { authorize: async () => ({ kind: 'unavailable' }) },
  };
  const services = buildServices(deps);
  const app = await buildApp(deps, services);
  onCleanup(() => app.close());
  const company = await handle.db.insertInto('companies').values({ id: newId('cmp'), name: 'Loja Bench Ltda', document: '11222333000181', fee_plan: '{}', created_at: new Date() }).returning('id').executeTakeFirstOrThrow();
  const companyId = company.id;
  const password = crypto.randomBytes(18).toString('base64url');
  await services.users.team.createAdmin(companyId, 'bench@loja.example', 'Bench', password);
  console.log(`seeding ${rows.toLocaleString('en')} transactions…`);
  const seedSeconds = await seed(handle.db, sql, companyId, rows);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const pool = new Pool(address, { connections: 1 });
  onCleanup(() => pool.destroy());

  const signIn = await pool.request({
    method: 'POST',
    path: '/dashboard/api/session',
    headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1' },
    body: JSON.stringify({ email: 'bench@loja.example', password }),
  });
  await signIn.body.text();
  const setCookie = [signIn.headers['set-cookie']].flat().find((c) => c?.startsWith('svc_session='));
  if (signIn.statusCode !== 200 || !setCookie) throw new Error(`the bench's admin could not sign in (${signIn.statusCode})`);
  const cookie = setCookie.split(';')[0];

  async function get(path) {
    const res = await pool.request({ method: 'GET', path, headers: { cookie } });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return text;
  }

  const pick = () => 1 + crypto.randomInt(rows);
  const kinds = {
    'trx_ id': (g) => idOf('trx', g),
    'pi_ id': (g) => idOf('pi', g),
    referenceId: (g) => `pedido-${g}`,
    'CPF, punctuated': (g) => punctuated(cpfOf(g)),
    'CPF, digits': (g) => cpfOf(g),
    'e-mail': (g) => `Cliente${g}@Example.com`,
    'name, 3 words': (g) => nameOf(g).join(' '),
    'name, 2 word prefixes': (g) => nameOf(g).slice(0, 2).map((w) => w.slice(0, 4)).join(' '),
    'name, 1 common word': (g) => nameOf(g)[0],
  };
  const search = {};
  for (const [kind, text] of Object.entries(kinds)) {
    for (let i = 0; i < 5; i++) await get(`/dashboard/api/transactions?q=${encodeURIComponent(text(pick()))}`); // warm-up
    const times = [];
    let empty = 0;
    for (let i = 0; i < searches; i++) {
      const g = pick();
      const started = performance.now();
      const body = await get(`/dashboard/api/transactions?q=${encodeURIComponent(text(g))}`);
      times.push(performance.now() - started);
      if (!body.includes(idOf('trx', g)) && !kind.startsWith('name')) empty++;
    }
    if (empty > 0) throw new Error(`search by ${kind}: ${empty} of ${searches} did not find their row`);
    times.sort((a, b) => a - b);
    search[kind] = { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) };
  }

  // The home page: its sums over the last 30 days of the million rows (read from the daily totals), checked
  // once against the rows themselves, then timed.
  const shown = JSON.parse(await get('/dashboard/api/home'));
  const direct = (
    await sql
      .raw(
        `SELECT count(*) FILTER (WHERE paid_at IS NOT NULL) AS paid, coalesce(sum(amount_cents) FILTER (WHERE paid_at IS NOT NULL), 0) AS amount,
           count(*) FILTER (WHERE status = 'PENDING') AS pending
         FROM transactions WHERE company_id = '${companyId}' AND created_at >= now() - interval '29 days'`,
      )
      .execute(handle.db)
  ).rows[0];
  const toReceive = (await sql.raw(`SELECT coalesce(sum(amount_cents), 0) AS s FROM receivables WHERE company_id = '${companyId}' AND status = 'PENDING'`).execute(handle.db)).rows[0];
  if (shown.last30Days.count !== Number(direct.paid) || shown.last30Days.amount !== Number(direct.amount) || shown.pending.count !== Number(direct.pending) || shown.receivables.toReceive !== Number(toReceive.s))
    throw new Error(`the home's sums differ from the rows': ${JSON.stringify({ shown, direct, toReceive })}`);
  for (let i = 0; i < 5; i++) await get('/dashboard/api/home'); // warm-up
  const home = [];
  for (let i = 0; i < HOME_REQUESTS; i++) {
    const started = performance.now();
    await get('/dashboard/api/home');
    home.push(performance.now() - started);
  }
  home.sort((a, b) => a - b);

  // The export, twice: every row, read as it comes and dropped, RSS sampled meanwhile. A second million
  // rows that leave the peak where the first left it say the memory does not grow with the rows sent.
  const baseline = process.memoryUsage().rss;
  const passes = [];
  for (let pass = 0; pass < 2; pass++) {
    const rss = [];
    const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 100);
    const started = performance.now();
    // The machine-readable form, which the figures in the README were taken of (the excel form costs about as much CPU).
    const res = await pool.request({ method: 'GET', path: '/dashboard/api/transactions.csv?format=rfc4180', headers: { cookie } });
    let lines = 0;
    let bytes = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (res.statusCode !== 200 || lines !== rows + 1) throw new Error(`the export answered ${res.statusCode} with ${lines} lines for ${rows} rows`);
    rss.sort((a, b) => a - b);
    passes.push({ seconds, rowsPerSecond: rows / seconds, megabytes: bytes / 2 ** 20, rssMin: rss[0], rssMax: rss.at(-1), rssP50: percentile(rss, 50), samples: rss.length });
  }
  return {
    rows,
    seedSeconds,
    searches,
    search,
    home: { requests: HOME_REQUESTS, p50: percentile(home, 50), p95: percentile(home, 95), max: home.at(-1) },
    rssBaseline: baseline,
    passes,
  };
}

export function dashboardReport(r) {
  const mb = (b) => `${fmt(b / 2 ** 20, 0)} MB`;
  const lines = [
    `${r.rows.toLocaleString('en')} transactions of one company (seeded in ${fmt(r.seedSeconds, 0)} s by INSERT … SELECT generate_series, then VACUUM ANALYZE)`,
    '',
    `Search: GET /dashboard/api/transactions?q=… (page of 20), ${r.searches} requests per kind, one at a time (target p95 < 50 ms)`,
    'kind                      p50 ms   p95 ms   max ms',
  ];
  for (const [kind, s] of Object.entries(r.search)) lines.push(`${kind.padEnd(24)} ${fmt(s.p50).padStart(7)}  ${fmt(s.p95).padStart(7)}  ${fmt(s.max).padStart(7)}${s.p95 < 50 ? '' : '   (over target)'}`);
  lines.push(
    '',
    `Home: GET /dashboard/api/home (from the daily totals), ${r.home.requests} requests one at a time (target p95 < 50 ms): p50 ${fmt(r.home.p50)} ms, p95 ${fmt(r.home.p95)} ms, max ${fmt(r.home.max)} ms${r.home.p95 < 50 ? '' : '   (over target)'}`,
  );
  r.passes.forEach((e, i) => {
    lines.push(
      '',
      `Export ${i + 1} of 2: GET /dashboard/api/transactions.csv?format=rfc4180, every row: ${fmt(e.seconds)} s, ${Math.round(e.rowsPerSecond).toLocaleString('en')} rows/s (target ≥ 50,000), ${fmt(e.megabytes, 0)} MB of CSV`,
      `  RSS of the process (API and client), ${e.samples} samples every 100 ms: min ${mb(e.rssMin)}, median ${mb(e.rssP50)}, max ${mb(e.rssMax)}`,
    );
  });
  lines.push(`RSS before the exports: ${mb(r.rssBaseline)} (flat: the second million rows leave the peak where the first left it)`);
  return lines.join('\n');
}
