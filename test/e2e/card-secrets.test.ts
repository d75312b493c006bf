/**
 * E2E: card numbers and CVVs never come out of the vault in readable form.
 *
 * One `svc serve` (API + vault + worker) at LOG_LEVEL=trace with all of its
 * stdout and stderr captured, and a local HTTPS webhook receiver registered
 * for all three event types (WEBHOOK_ALLOW_LOOPBACK + NODE_EXTRA_CA_CERTS).
 * Three full card payments over HTTP, the card encrypted here with jose as
 * the hosted fields page would (compact JWE, RSA-OAEP-256 + A256GCM, to the
 * intent's `cardTokenization.encryptionKey`), POST /tokenize on the vault
 * port, confirm on the API:
 *   approved  4111111111111111, CVV 739 → PAID
 *   refused   4111113111110002, CVV 826 → FAILED (insufficient_funds)
 *   silent    4111113111110119, CVV 915 → 502 PROVIDER_ERROR
 * Then everything that could carry a card is gathered: every API and vault
 * response body, GET /v2/events?limit=100 and each GET /v2/events/{id},
 * GET /v2/transactions (and each transaction), the webhook deliveries log,
 * every webhook body and its headers, the server's whole log, and every
 * column (cast to text) of every table of the `public` and `vault` schemas
 * (read after the server stopped, so PGlite can be opened). With PGlite the
 * raw files of DATA_DIR are scanned too (a plaintext number in any page,
 * deleted row or WAL segment would show there).
 *
 * Nothing may contain a full card number (plain, or spaced every 4 digits),
 * nor a CVV as a JSON value ("739", :739). Positive checks make sure the scan
 * is real: the log has request lines of both the API and the vault, the dump
 * holds the vault tokens (brand, last4; their card erased once spent) and the
 * transactions, and the scanner itself catches planted leaks.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { sql } from 'kysely';
import { startHttpsReceiver, type HttpsReceiver } from '../helpers/https-receiver.js';
import { freePort, idemKey, startServer, withDatabase, type TestServer } from '../helpers/server.js';
import { cardIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const CARDS = {
  approved: { number: '4111111111111111', cvv: '739', last4: '1111' },
  refused: { number: '4111113111110002', cvv: '826', last4: '0002' },
  silent: { number: '4111113111110119', cvv: '915', last4: '0119' },
} as const;
const EVENT_TYPES = ['transaction.created', 'transaction.paid', 'transaction.canceled'];

const spaced = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every way a secret of ours could show: the number plain or spaced, a CVV as a JSON string or number value. */
const FORBIDDEN: Array<{ label: string; re: RegExp }> = [
  ...Object.entries(CARDS).flatMap(([name, c]) => [
    { label: `${name} card number`, re: new RegExp(escapeRe(c.number)) },
    { label: `${name} card number, spaced`, re: new RegExp(escapeRe(spaced(c.number))) },
    { label: `${name} CVV as a JSON string`, re: new RegExp(`"${c.cvv}"`) },
    { label: `${name} CVV as a JSON number`, re: new RegExp(`:\\s*${c.cvv}(?![\\d.])`) },
  ]),
];

/** The leaks found in `text` (empty when clean). */
function leaks(text: string): string[] {
  return FORBIDDEN.filter((f) => f.re.test(text)).map((f) => f.label);
}

/** What was gathered: a source name and its text. */
const corpus: Array<{ source: string; text: string }> = [];
const collect = (source: string, value: unknown) => corpus.push({ source, text: typeof value === 'string' ? value : JSON.stringify(value) });

let server: TestServer;
let receiver: HttpsReceiver;
let vaultUrl: string;
let stopped = false;
let destroyed = false;

before(async () => {
  receiver = await startHttpsReceiver();
  const vaultPort = await freePort();
  vaultUrl = `http://127.0.0.1:${vaultPort}`;
  server = await startServer({
    env: {
      LOG_LEVEL: 'trace',
      VAULT_PORT: String(vaultPort),
      PUBLIC_VAULT_URL: `http://localhost:${vaultPort}`,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      NODE_EXTRA_CA_CERTS: receiver.cert.certFile,
      RATE_LIMIT_PER_SECOND: '10000',
      VAULT_ATTEMPTS_PER_IP_PER_MINUTE: '1000',
    },
  });
});

after(async () => {
  if (server && !stopped) await server.stop().catch(() => {});
  else if (server && !destroyed) await server.deployment.destroy().catch(() => {});
  await receiver?.close();
});

/** An API call; the response body (parsed) is collected. */
async function api(pathname: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<{ status: number; json: Json }> {
  const res = await server.api(pathname, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    body: init.body,
    headers: init.key ? { 'idempotency-key': init.key } : {},
  });
  const text = await res.text();
  collect(`API ${init.method ?? (init.body !== undefined ? 'POST' : 'GET')} ${pathname} → ${res.status}`, text);
  collect(`API headers of ${pathname}`, Object.fromEntries(res.headers));
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Json };
}

/** A vault call on its own port; the response body is collected. */
async function vault(pathname: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${vaultUrl}${pathname}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  collect(`vault ${pathname} → ${res.status}`, text);
  collect(`vault headers of ${pathname}`, Object.fromEntries(res.headers));
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Json };
}

/** Intent → JWE in Node → POST /tokenize → confirm. Returns the confirm answer and the intent. */
async function pay(card: { number: string; cvv: string; last4: string }, label: string): Promise<{ confirm: { status: number; json: Json }; intentId: string }> {
  const created = await api('/v2/payment-intents', {
    body: cardIntent({ amountCents: 12_345, referenceId: `secrets-${label}` }),
    key: idemKey(`create-${label}`),
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  assert.equal(created.json.status, 'REQUIRES_TOKEN');
  const { ticket, encryptionKey, vaultUrl: publicVault } = created.json.cardTokenization as Json;
  assert.equal(new URL(publicVault).port, new URL(vaultUrl).port, 'cardTokenization.vaultUrl is PUBLIC_VAULT_URL');

  const plaintext = JSON.stringify({ number: card.number, holderName: 'Maria da Silva', expMonth: 12, expYear: 2030, cvv: card.cvv });
  const encryptedCard = await new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: encryptionKey.kid, ticket })
    .encrypt(await importJWK(encryptionKey as JWK, 'RSA-OAEP-256'));
  const tokenized = await vault('/tokenize', { ticket, keyId: encryptionKey.kid, encryptedCard });
  assert.equal(tokenized.status, 201, JSON.stringify(tokenized.json));
  assert.match(tokenized.json.token, /^vtk_/);
  assert.equal(tokenized.json.brand, 'visa');
  assert.equal(tokenized.json.last4, card.last4);

  const confirm = await api(`/v2/payment-intents/${created.json.id}/confirm`, { body: { token: tokenized.json.token }, key: idemKey(`confirm-${label}`) });
  await api(`/v2/payment-intents/${created.json.id}`);
  return { confirm, intentId: created.json.id };
}

test('no card number or CVV in any response, event, webhook, log line or database column', { timeout: 85_000 }, async () => {
  // The scanner catches what it is meant to catch (so a clean result means something).
  assert.deepEqual(leaks('{"cvv":"739"}'), ['approved CVV as a JSON string']);
  assert.deepEqual(leaks('{"cvv": 826}'), ['refused CVV as a JSON number']);
  assert.deepEqual(leaks('card 4111 1131 1111 0119 typed'), ['silent card number, spaced']);
  assert.deepEqual(leaks('"time":1739000000000,"responseTime":12.739,"id":"trx_739a","x":"7390"'), []);

  const hook = await api('/v2/webhooks', { body: { url: `${receiver.url}/hook`, events: EVENT_TYPES } });
  assert.equal(hook.status, 201, JSON.stringify(hook.json));

  assert.equal((await vault('/keys')).status, 200);

  const approved = await pay(CARDS.approved, 'approved');
  assert.equal(approved.confirm.status, 201, JSON.stringify(approved.confirm.json));
  assert.equal(approved.confirm.json.status, 'PAID');
  assert.deepEqual(approved.confirm.json.paymentDetails.card, { brand: 'visa', last4: '1111' });

  const refused = await pay(CARDS.refused, 'refused');
  assert.equal(refused.confirm.status, 201, JSON.stringify(refused.confirm.json));
  assert.equal(refused.confirm.json.status, 'FAILED');
  assert.equal(refused.confirm.json.paymentDetails.card.refusalCode, 'insufficient_funds');
  assert.equal(refused.confirm.json.paymentDetails.card.last4, '0002');

  const silent = await pay(CARDS.silent, 'silent');
  assert.equal(silent.confirm.status, 502, JSON.stringify(silent.confirm.json));
  assert.equal(silent.confirm.json.code, 'PROVIDER_ERROR');

  // Events: approved → created + paid, refused → created + canceled, silent → none.
  const events = await api('/v2/events?limit=100');
  assert.equal(events.status, 200);
  const list = events.json.data as Json[];
  assert.deepEqual(list.map((e) => e.type).sort(), ['transaction.canceled', 'transaction.created', 'transaction.created', 'transaction.paid']);
  for (const e of list) assert.equal((await api(`/v2/events/${e.id}`)).status, 200);

  const transactions = await api('/v2/transactions');
  assert.equal(transactions.json.data.length, 2, 'the silent acquirer made no transaction');
  for (const t of transactions.json.data as Json[]) await api(`/v2/transactions/${t.id}`);

  // Every event reached the receiver (one attempt each in the sandbox).
  const received = await receiver.waitForRequests(list.length, { timeoutMs: 15_000 });
  assert.deepEqual(received.map((r) => r.headers['x-svc-event-id']).sort(), list.map((e) => e.id).sort());
  for (const r of received) {
    collect(`webhook body #${r.n}`, r.body.toString('utf8'));
    collect(`webhook headers #${r.n}`, r.headers);
  }
  collect('deliveries', (await api(`/v2/webhooks/${hook.json.id}/deliveries`)).json);

  // Stop (keeping the data) so PGlite can be opened here; the whole log is then complete.
  const exit = await server.stop({ keep: true });
  stopped = true;
  assert.deepEqual(exit, { code: 0, signal: null });
  const log = server.stdout() + server.stderr();
  collect('server log (stdout + stderr)', log);

  // The log scan is real: request lines of both apps, the tokenize and confirm calls among them.
  const lines = log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Json);
  const requestLines = lines.filter((l) => l.req?.url || l.msg === 'request completed');
  assert.ok(requestLines.length >= 20, `request lines in the log: ${requestLines.length}`);
  assert.ok(lines.some((l) => l.role === 'vault' && l.req?.url === '/tokenize'), 'the vault logged POST /tokenize');
  assert.ok(lines.some((l) => l.role === 'api' && /\/confirm$/.test(l.req?.url ?? '')), 'the API logged the confirms');

  // Every column of every table of both schemas, cast to text.
  const dump = await withDatabase(server.deployment, async (db) => {
    const columns = await sql<{ table_schema: string; table_name: string; column_name: string; data_type: string }>`
      select c.table_schema, c.table_name, c.column_name, c.data_type
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema in ('public', 'vault')
      order by c.table_schema, c.table_name, c.ordinal_position`.execute(db);
    const tables = new Map<string, { column_name: string; data_type: string }[]>();
    for (const c of columns.rows) {
      const key = `${c.table_schema}.${c.table_name}`;
      tables.set(key, [...(tables.get(key) ?? []), c]);
    }
    const out: Record<string, Json[]> = {};
    for (const [table, cols] of tables) {
      const [schema, name] = table.split('.') as [string, string];
      const selections = cols.map((c) =>
        c.data_type === 'bytea'
          ? sql`encode(${sql.ref(c.column_name)}, 'escape') as ${sql.ref(c.column_name)}`
          : sql`${sql.ref(c.column_name)}::text as ${sql.ref(c.column_name)}`,
      );
      const rows = await sql<Json>`select ${sql.join(selections)} from ${sql.table(`${schema}.${name}`)}`.execute(db);
      out[table] = rows.rows;
    }
    return out;
  });
  for (const [table, rows] of Object.entries(dump)) collect(`table ${table}`, rows);

  // The dump is real: the vault's tokens and the transactions are in it.
  const tokens = dump['vault.tokens'] ?? [];
  assert.deepEqual(tokens.map((t) => t.last4).sort(), ['0002', '0119', '1111']);
  // Each token was spent: its card and CVV are gone (issue 26), its keyed fingerprint stays.
  assert.ok(tokens.every((t) => t.card_sealed === null && t.cvv_sealed === null), 'no card is kept after its payment');
  assert.ok(tokens.every((t) => /^[0-9a-f]{64}$/.test(t.fingerprint)), 'the fingerprint is kept');
  assert.deepEqual((dump['public.transactions'] ?? []).map((t) => t.status).sort(), ['FAILED', 'PAID']);

  // PGlite: the raw database files (pages, WAL) too.
  if (server.engine === 'pglite') {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.isFile()) files.push(full);
      }
    };
    walk(server.dataDir);
    assert.ok(files.length > 10, 'DATA_DIR holds the database files');
    let plainTextSeen = false;
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      if (bytes.includes(approved.confirm.json.id as string)) plainTextSeen = true;
      for (const c of Object.values(CARDS)) {
        assert.equal(bytes.includes(c.number), false, `card ${c.last4} in ${path.relative(server.dataDir, file)}`);
        assert.equal(bytes.includes(spaced(c.number)), false, `spaced card ${c.last4} in ${path.relative(server.dataDir, file)}`);
      }
    }
    assert.ok(plainTextSeen, 'the raw files show stored text as is (a transaction id), so the raw scan can see a leak');
  }

  // The scan.
  const found = corpus.flatMap((c) => leaks(c.text).map((l) => `${l} in ${c.source}`));
  assert.deepEqual(found, [], 'no card number or CVV anywhere');
  assert.ok(corpus.length > 40, `sources scanned: ${corpus.length}`);
  destroyed = true;
  await server.deployment.destroy();
});
