/**
 * Fuzz every route of /openapi.json on a real `svc serve`: thousands of
 * generated requests (control characters, NUL, lone surrogates, huge numbers,
 * deep nesting, wrong types, odd content types, bad ids, oversized strings)
 * through fetch, and raw-socket requests the HTTP parser refuses (bad header
 * bytes, unknown methods, spaces in the path, broken request lines).
 *
 * The contract under test: no 5xx other than 502 and 503, every response
 * carries X-Request-Id, and every error is the contract's `{code, message,
 * details?}` body. Seeded (FUZZ_SEED, default 9) so a failure reproduces;
 * FUZZ_REQUESTS changes the number of fetch requests (default 5,000).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Agent, fetch as undiciFetch, type Response } from 'undici';
import { assertErrorBody } from '../helpers/assert.js';
import { pixIntent } from '../helpers/fixtures.js';
import { encodeAny, exampleOf, fieldPaths, nastyJsonText, nastyNumber, nastyString, nastyValue, oversizedString, withField, type Schema } from '../helpers/fuzz-inputs.js';
import { rawHttp } from '../helpers/raw-http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const SEED = Number(process.env.FUZZ_SEED ?? 9);
const FETCH_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5_000);
const RAW_REQUESTS = Math.max(200, Math.round(FETCH_REQUESTS / 8));
const CONCURRENCY = 8;

interface Operation {
  method: string;
  /** The OpenAPI path, `{id}` style. */
  path: string;
  query: string[];
  body?: Schema;
}

interface Tally {
  sent: number;
  byStatus: Map<number, number>;
  noAnswer: number;
  failures: string[];
}

let server: TestServer;
let doc: Schema;
let operations: Operation[];
const realIds: string[] = [];
const tally: Tally = { sent: 0, byStatus: new Map(), noAnswer: 0, failures: [] };
const dispatcher = new Agent({ connections: CONCURRENCY, headersTimeout: 30_000, bodyTimeout: 30_000 });

before(async () => {
  // LOG_LEVEL info: request lines are logged, so the test also sees that query values are not.
  server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '1000000', LOG_LEVEL: 'info' } });
  doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Schema;
  operations = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      const parameters = (op.parameters as { in: string; name: string }[] | undefined) ?? [];
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      operations.push({ method: method.toUpperCase(), path, query: parameters.filter((p) => p.in === 'query').map((p) => p.name), body: content?.['application/json']?.schema });
    }
  }
  // Real ids, so generated requests also reach past "not found".
  const created = (await (await server.api('/v2/payment-intents', { body: pixIntent({ confirm: true }) })).json()) as { id: string; transaction: { id: string } };
  const open = (await (await server.api('/v2/payment-intents', { body: pixIntent() })).json()) as { id: string };
  realIds.push(created.id, created.transaction.id, open.id);
});

const LOGGED_SECRET = 'sk_live_fuzz_secret_0123456789';

test('a key put in the query string never reaches the log', async () => {
  await (await server.api(`/v2/transactions?api_key=${LOGGED_SECRET}&limit=5`)).text();
  await (await server.api(`/v2/transactions?${LOGGED_SECRET}`)).text();
  const deadline = Date.now() + 5_000;
  while (!server.stdout().includes('api_key=[redacted]') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.ok(server.stdout().includes('/v2/transactions?api_key=[redacted]&limit=[redacted]'), 'the request line is logged, redacted');
  assert.ok(!`${server.stdout()}${server.stderr()}`.includes(LOGGED_SECRET), 'the secret is not in the log');
});

after(async () => {
  await dispatcher.close();
  const info = await server?.stop();
  assert.ok(!info?.signal || info.signal === 'SIGTERM', `svc serve ended by ${info?.signal}`);
});

function record(status: number | undefined, what: string, check: () => void): void {
  tally.sent++;
  if (status === undefined) {
    tally.noAnswer++;
    return;
  }
  tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
  try {
    assert.ok(status < 500 || status === 502 || status === 503, `a ${status}`);
    check();
  } catch (err) {
    if (tally.failures.length < 20) tally.failures.push(`${what}: ${(err as Error).message}`.slice(0, 600));
  }
}

function checkAnswer(status: number, method: string, headers: (name: string) => string | undefined, body: string): void {
  assert.ok(headers('x-request-id'), 'X-Request-Id is missing');
  if (status < 400 || method === 'HEAD') return;
  assert.match(headers('content-type') ?? '', /^application\/json/, 'error content type');
  assertErrorBody(JSON.parse(body));
}

/** Runs `work` over `items` with CONCURRENCY in flight. */
async function pool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 300 });

/** Valid bodies of the routes whose schema alone does not give one (a valid CPF, a coherent sale), so mutations reach the service. */
const VALID_BODIES: Record<string, unknown> = {
  'POST /v2/payment-intents': pixIntent({ confirm: true, description: 'fuzz', metadata: { order: '1' } }),
};

const exampleBody = (op: Operation): unknown => VALID_BODIES[`${op.method} ${op.path}`] ?? (op.body ? exampleOf(op.body, doc) : {});

function fetchCases() {
  const id = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...realIds) }, { weight: 3, arbitrary: nastyString }, { weight: 1, arbitrary: oversizedString.map((s) => s.slice(0, 600)) }, fc.constantFrom('..', '%2e%2e', `pi_${'z'.repeat(61)}`, 'trx_%00'));
  const query = (op: Operation) =>
    fc.dictionary(fc.oneof(fc.constantFrom(...op.query, 'limit', 'api_key'), nastyString), fc.oneof(nastyString, nastyNumber.map(String)), { maxKeys: 4 });
  return fc
    .constantFrom(...operations)
    .chain((op) =>
      fc.record({
        op: fc.constant(op),
        method: fc.oneof({ weight: 9, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') }),
        id,
        query: query(op),
        body: fc.oneof(
          fc.constant<string | undefined>(undefined),
          fc.constant(JSON.stringify(exampleBody(op))),
          fc.tuple(fc.nat(), nastyValue).map(([pick, value]) => {
            const example = op.body ? exampleBody(op) : { foo: 1 };
            const paths = fieldPaths(example);
            return JSON.stringify(withField(example, paths[pick % paths.length]!, value)) as string | undefined;
          }),
          fc.anything({ maxDepth: 4 }).map((v) => JSON.stringify(v) as string | undefined),
          nastyJsonText,
        ),
        contentType: fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', ''),
        idempotencyKey: fc.option(fc.oneof(headerText, fc.string({ maxLength: 20 }).map((s) => `k-${encodeURIComponent(s)}`)), { nil: undefined }),
        auth: fc.oneof({ weight: 12, arbitrary: fc.constant('key') }, fc.constantFrom('none', 'bad', 'wrong-scheme')),
      }),
    );
}

function rawCases() {
  const anyPath = fc.oneof(
    fc.constantFrom(...operations.map((op) => op.path.replace('{id}', realIds[0]!))),
    fc.constantFrom('/v2/trans actions', '/v2/\u0001', '*', 'http://x/v2/transactions', '/%', '//', '/v2/payment-intents/\u007f', '/v2/payment-intents/\u0000', '', '/v2/transactions?referenceId=\u0000'),
  );
  const controlText = fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 });
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'FOO', 'PURGE', 'get', 'G\tET', '', 'CONNECT', 'TRACE', 'PROPFIND', 'M-SEARCH', 'DELETE', 'OPTIONS'),
    path: anyPath,
    version: fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 x', '', 'HTTPS/1.1', 'HTTP/9'),
    headerName: fc.constantFrom('X-Test', 'Bad Name', 'X\u0000', 'Idempotency-Key', 'Content-Type', 'X-Request-Id', '', 'X:Y'),
    headerValue: fc.oneof(controlText, headerText),
    eol: fc.constantFrom('\r\n', '\r\n', '\r\n', '\n'),
    body: fc.option(fc.oneof(nastyJsonText, fc.string({ maxLength: 50 })), { nil: undefined }),
    lengthHeader: fc.constantFrom('right', 'right', 'none', 'wrong', 'chunked-bad', 'both'),
  });
  return request.map((r) => {
    const body = Buffer.from(r.body ?? '', 'utf8');
    const lengthLines = {
      right: [`Content-Length: ${body.length}`],
      none: [],
      wrong: ['Content-Length: abc'],
      'chunked-bad': ['Transfer-Encoding: chunked'],
      both: [`Content-Length: ${body.length}`, 'Transfer-Encoding: chunked'],
    }[r.lengthHeader];
    const head = [`${r.method} ${r.path} ${r.version}`.trimEnd(), 'Host: localhost', `Authorization: Bearer ${server.key}`, 'Content-Type: application/json', `${r.headerName}: ${r.headerValue}`, ...lengthLines, 'Connection: close'];
    return { method: r.method, bytes: Buffer.concat([Buffer.from(head.join(r.eol) + r.eol + r.eol, 'latin1'), body]) };
  });
}

const FIXED_RAW = [
  'GET / HTTP/1.1\r\nHost: x\r\nX-Big: ' + 'a'.repeat(20_000) + '\r\n\r\n',
  'GET\r\n\r\n',
  '\u0000\u0001\u0002\r\n\r\n',
  'GET /v2/transactions HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n',
  'FOO /v2/transactions HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /v2/trans actions HTTP/1.1\r\nHost: x\r\n\r\n',
  'POST /v2/payment-intents HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
].map((text) => ({ method: text.split(' ')[0]!, bytes: Buffer.from(text, 'latin1') }));

test(`fuzz every route of /openapi.json (seed ${SEED}): no 5xx but 502/503, every error in the contract's body with X-Request-Id`, async (t) => {
  const started = Date.now();
  const cases = fc.sample(fetchCases(), { seed: SEED, numRuns: FETCH_REQUESTS });
  await pool(cases, async (c) => {
    const path = c.op.path.replace('{id}', encodeAny(c.id));
    const search = Object.entries(c.query).map(([k, v]) => `${encodeAny(k)}=${encodeAny(v)}`).join('&');
    const url = `${server.url}${path}${search ? `?${search}` : ''}`;
    const headers: Record<string, string> = {};
    if (c.auth === 'key') headers.authorization = `Bearer ${server.key}`;
    if (c.auth === 'bad') headers.authorization = 'Bearer svc_test_nope';
    if (c.auth === 'wrong-scheme') headers.authorization = `Basic ${server.key}`;
    if (c.idempotencyKey !== undefined) headers['idempotency-key'] = c.idempotencyKey;
    const withBody = c.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD';
    if (withBody && c.contentType) headers['content-type'] = c.contentType;
    const what = `${c.method} ${url.slice(0, 200)} ${JSON.stringify(headers).slice(0, 200)} ${String(c.body).slice(0, 200)}`;
    let res: Response;
    try {
      res = await undiciFetch(url, { method: c.method, headers, body: withBody ? c.body : undefined, dispatcher });
    } catch (err) {
      record(undefined, what, () => {});
      if (tally.failures.length < 20) tally.failures.push(`${what}: no answer: ${(err as Error).message}`);
      return;
    }
    const text = await res.text();
    record(res.status, what, () => checkAnswer(res.status, c.method, (name) => res.headers.get(name) ?? undefined, text));
  });

  const raw = [...FIXED_RAW, ...fc.sample(rawCases(), { seed: SEED, numRuns: RAW_REQUESTS })];
  let rawNoAnswer = 0;
  const noAnswerSamples: string[] = [];
  await pool(raw, async (c) => {
    const { response, text } = await rawHttp(Number(new URL(server.url).port), c.bytes);
    if (!response) {
      if (rawNoAnswer < 5) noAnswerSamples.push(JSON.stringify(c.bytes.toString('latin1').slice(0, 160)));
      rawNoAnswer++;
      tally.sent++;
      tally.noAnswer++;
      return;
    }
    const what = `raw ${JSON.stringify(c.bytes.toString('latin1').slice(0, 200))} → ${text.slice(0, 200)}`;
    const body = Buffer.from(response.body, 'latin1').toString('utf8');
    record(response.status, what, () => checkAnswer(response.status, c.method, (name) => response.headers[name], body));
  });

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const distribution = [...tally.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
  const fiveHundreds = [...tally.byStatus].filter(([s]) => s >= 500).reduce((sum, [, n]) => sum + n, 0);
  const summary = `fuzz: ${tally.sent} requests (${cases.length} fetch, ${raw.length} raw) in ${seconds} s, ${fiveHundreds} 5xx, ${tally.noAnswer} without an answer (${rawNoAnswer} raw); statuses ${distribution}`;
  t.diagnostic(summary);
  for (const sample of noAnswerSamples) t.diagnostic(`closed without an answer: ${sample}`);
  console.log(summary);

  assert.ok(tally.sent >= 5_000 || FETCH_REQUESTS < 5_000, `only ${tally.sent} requests were sent`);
  assert.deepEqual(tally.failures, [], `${tally.failures.length} failing responses`);
  assert.equal(tally.noAnswer, 0, 'every request got an answer');
  assert.equal(server.child.exitCode, null, 'svc serve is still running');
  assert.ok(/^\d/.test(distribution));
});
