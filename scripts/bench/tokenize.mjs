// Part "tokenize" (issue 5): POST /tokenize throughput of the vault in `svc serve`, set
// beside `openssl speed rsa2048` private-key operations (sign/s) on the same machine.
//
// Each tokenize is one RSA-OAEP-256 private-key decryption plus a JWT check, two
// statements (the IP and ticket attempt counters with whether the intent is closed; the token) and AES-GCM sealing.
// A ticket allows 5 attempts, so the bench first creates card intents through the API
// and encrypts 5 card JWEs per ticket (jose, as the hosted fields page does), all
// before timing; the timed run then only replays these bodies. The attempts of one
// ticket are spread apart, and each lane has its own loopback source address so the
// per-IP attempt counter is not one row that every request updates (it would be in a
// real deployment only if all cards came from one client address).
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { CompactEncrypt, importJWK } from 'jose';
import { luhnValid } from '../../dist/modules/vault/card-brands.js'; // npm run bench builds dist first
import {
  closedLoop, cpuSeconds, createDatabase, fmt, httpClient, onCleanup, parkIfStopping, percentile, serviceEnv, startServe, tempDir,
} from './lib.mjs';

/** A Visa number, random but for its first digit and the Luhn check digit: each intent has its own card, as real buyers do. */
function randomCardNumber() {
  const body = `4${Array.from({ length: 14 }, () => crypto.randomInt(10)).join('')}`;
  return `${body}${[...'0123456789'].find((check) => luhnValid(body + check))}`;
}
const cardPayload = () => new TextEncoder().encode(JSON.stringify({ number: randomCardNumber(), holderName: 'Bench', expMonth: 12, expYear: 2030, cvv: '123' }));
const ATTEMPTS_PER_TICKET = 5; // MAX_ATTEMPTS_PER_TICKET in src/modules/vault/tokenize.ts

/** Creates `count` card intents and returns 5 ready /tokenize bodies per ticket, the 5 of a ticket spread apart. */
async function prepareBodies(api, count) {
  const keys = new Map(); // kid → imported public key
  const rounds = Array.from({ length: ATTEMPTS_PER_TICKET }, () => []);
  let issued = 0;
  await closedLoop(8, Infinity, async () => {
    if (issued++ >= count) return false;
    const r = await api.post(
      '/v2/payment-intents',
      { paymentMethod: 'CREDIT_CARD', amountCents: 10000, referenceId: `bench-${crypto.randomUUID()}`, buyer: { name: 'Maria', document: '52998224725', email: 'maria@example.com' } },
      { 'idempotency-key': crypto.randomUUID() },
    );
    if (r.status !== 201 || !r.body.cardTokenization) throw new Error(`card intent creation failed (${r.status}): ${JSON.stringify(r.body)}`);
    const { ticket, encryptionKey: jwk } = r.body.cardTokenization;
    if (!keys.has(jwk.kid)) keys.set(jwk.kid, importJWK(jwk, 'RSA-OAEP-256'));
    const key = await keys.get(jwk.kid);
    const card = cardPayload();
    for (const round of rounds) {
      const encryptedCard = await new CompactEncrypt(card).setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: jwk.kid, ticket }).encrypt(key);
      round.push(JSON.stringify({ ticket, keyId: jwk.kid, encryptedCard }));
    }
  });
  return rounds.flat();
}

/** POSTs `bodies` to /tokenize from `lanes` (one connection each) for up to `seconds`. */
async function runTokenize(lanes, bodies, seconds, pid) {
  await parkIfStopping();
  let next = 0;
  let bad = 0;
  let firstBad;
  const latencies = [];
  const cpu0 = cpuSeconds(pid);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(lanes.map(async (vault) => {
    while (performance.now() < deadline && next < bodies.length) {
      const body = bodies[next++];
      const t0 = performance.now();
      const r = await vault.post('/tokenize', body);
      if (r.status === 201) {
        latencies.push(performance.now() - t0);
      } else {
        bad++;
        firstBad ??= `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
      }
    }
  }));
  const wall = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(pid) - cpu0;
  latencies.sort((a, b) => a - b);
  return {
    ok: latencies.length, bad, firstBad, wall, exhausted: next >= bodies.length,
    perSec: latencies.length / wall, p50: percentile(latencies, 50), p99: percentile(latencies, 99),
    cores: cpu / wall, perCpuSec: latencies.length / cpu,
  };
}

/** tokenize-floor.mjs on `databaseUrl` under the same load: tokens per CPU-second of that bare server. */
async function runFloor(databaseUrl, concurrency, seconds) {
  await parkIfStopping();
  const child = spawn(process.execPath, [new URL('./tokenize-floor.mjs', import.meta.url).pathname, databaseUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
  onCleanup(() => child.kill('SIGKILL'));
  const { port, body } = await new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`tokenize-floor.mjs exited (${code})`)));
  });
  const floor = httpClient(`http://127.0.0.1:${port}`, { connections: concurrency });
  let ok = 0;
  const cpu0 = cpuSeconds(child.pid);
  const wall = await closedLoop(concurrency, seconds, async () => {
    if ((await floor.post('/tokenize', body)).status !== 201) throw new Error('tokenize-floor.mjs failed a request');
    ok++;
  });
  const cpu = cpuSeconds(child.pid) - cpu0;
  child.kill('SIGTERM');
  return { perSec: ok / wall, perCpuSec: ok / cpu };
}

/** `openssl speed rsa2048`: RSA-2048 private-key (sign) and public-key (verify) operations per second, one thread. */
async function opensslRsa(seconds) {
  const { stdout } = await promisify(execFile)('openssl', ['speed', '-seconds', String(seconds), 'rsa2048'], { timeout: 10 * seconds * 1000 + 30_000 });
  const m = stdout.match(/^rsa\s+2048 bits\s+\S+\s+\S+\s+([\d.]+)\s+([\d.]+)/m);
  if (!m) throw new Error(`no "rsa 2048 bits" line in openssl speed output:\n${stdout}`);
  return { sign: Number(m[1]), verify: Number(m[2]) };
}

export async function benchTokenize({ concurrency, seconds, opensslSeconds }) {
  const db = await createDatabase('tokenize');
  console.log(`Tokenize: svc serve on database ${db.name}…`);
  const serve = await startServe(await serviceEnv({
    databaseUrl: db.url,
    dataDir: tempDir('tokenize'),
    VAULT_ATTEMPTS_PER_IP_PER_MINUTE: '1000000', // the most the configuration accepts (default 60)
  }));
  const api = httpClient(serve.base, { key: serve.key, connections: 8 });
  const lanes = Array.from({ length: concurrency }, (_, i) => httpClient(serve.vaultBase, { connections: 1, localAddress: `127.0.0.${10 + i}` }));

  // Warm-up (JIT, pools, key cache), which also tells how many tickets the timed run needs.
  const warmSeconds = Math.min(2, seconds);
  process.stdout.write(`  tokenize: 100 card intents for a ${warmSeconds} s warm-up… `);
  const warm = await runTokenize(lanes, await prepareBodies(api, 100), warmSeconds, serve.pid);
  if (warm.ok === 0) throw new Error(`no tokenize succeeded in the warm-up: ${warm.firstBad}`);
  console.log(`${warm.perSec.toFixed(0)} tokenize/s`);
  // Warm-up rates run low (JIT, a busy machine): plan for 3 times as many, plus a margin.
  const intents = Math.ceil((warm.perSec * seconds * 3) / ATTEMPTS_PER_TICKET) + 100;
  process.stdout.write(`  tokenize: ${intents} card intents, ${intents * ATTEMPTS_PER_TICKET} JWEs… `);
  const t0 = performance.now();
  const bodies = await prepareBodies(api, intents);
  console.log(`ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  process.stdout.write(`  tokenize c=${concurrency} ${seconds} s… `);
  const run = await runTokenize(lanes, bodies, seconds, serve.pid);
  console.log(`${run.perSec.toFixed(0)} tokenize/s`);
  // Stop the service so the floor and openssl have the machine to themselves, as the service had.
  await serve.stop();
  process.stdout.write(`  floor (tokenize-floor.mjs) c=${concurrency} ${seconds} s… `);
  const floor = await runFloor(db.url, concurrency, seconds);
  console.log(`${floor.perSec.toFixed(0)} tokenize/s`);
  process.stdout.write(`  openssl speed -seconds ${opensslSeconds} rsa2048… `);
  const openssl = await opensslRsa(opensslSeconds);
  console.log(`${openssl.sign.toFixed(1)} sign/s`);
  return { concurrency, run, floor, openssl, opensslSeconds };
}

export function tokenizeReport({ concurrency, run, floor, openssl, opensslSeconds }) {
  return [
    `POST /tokenize, ${concurrency} connections (closed loop), ${run.wall.toFixed(1)} s${run.exhausted ? ' (prepared bodies ran out early)' : ''}:`,
    `  ${fmt(run.perSec)} tokenize/s, p50 ${fmt(run.p50, 2)} ms, p99 ${fmt(run.p99, 2)} ms, ${run.ok} tokens, ${run.bad} non-201${run.firstBad ? ` (first: ${run.firstBad})` : ''}`,
    `  svc serve process CPU: ${fmt(run.cores, 2)} cores busy on average → ${fmt(run.perCpuSec)} tokenize per CPU-second of the service process`,
    `openssl speed -seconds ${opensslSeconds} rsa2048 (one thread): ${fmt(openssl.sign)} sign/s (private-key ops), ${fmt(openssl.verify)} verify/s`,
    `Ratio tokenize/s ÷ openssl sign/s: ${fmt(run.perSec / openssl.sign, 3)}   (per CPU-second of the service: ${fmt(run.perCpuSec / openssl.sign, 3)})`,
    `Floor: a bare node:http server that only opens the same JWE and runs two one-row statements (scripts/bench/tokenize-floor.mjs):`,
    `  ${fmt(floor.perSec)} tokenize/s, ${fmt(floor.perCpuSec)} per CPU-second of its process → ${fmt(floor.perCpuSec / openssl.sign, 3)} of openssl sign/s`,
    '',
    `The vault runs inside svc serve, one Node process; it decrypts with node:crypto on its main thread, so the
RSA work is counted in the service's CPU; PostgreSQL (per tokenize: one statement for both attempt counters
and whether the intent is closed, one for the card limit, the used JWE and the token) runs on the same 2 cores. Each connection has its own
loopback source address (127.0.0.10+), so the per-IP counter is not a single hot row.`,
  ].join('\n');
}
