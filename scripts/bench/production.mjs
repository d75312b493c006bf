// Part "production": the one-call Pix flow with SVC_ENV=production and PIX_PROVIDER=bcb-api-pix
// against the local PSP of the tests (test/providers/local-psp.ts: HTTPS, mutual TLS, OAuth2),
// bundled here with esbuild and run in this process with its OpenAPI validation off, so the
// figure is the service's "persist, call the PSP, persist" path, not the validator's.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { cpuCell, createDatabase, fmt, onCleanup, serviceEnv, spawnSvc, tempDir, waitReady } from './lib.mjs';
import { runFlow } from './http.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SVC = path.join(ROOT, 'bin', 'svc.js');
const run = promisify(execFile);

/** The local PSP and the test CA, as one ES module in .test-build/ (git-ignored; inside the repository so its imports resolve). */
async function loadFixtures() {
  const outfile = path.join(ROOT, '.test-build', 'bench-fixtures.mjs');
  await esbuild.build({
    stdin: { contents: "export * from './test/providers/local-psp.ts'; export * from './test/helpers/test-ca.ts';", resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

/**
 * `svc serve` (this repository's bin/svc.js, or the one at `svc`) with SVC_ENV=production on a fresh
 * database, its Pix going through bcb-api-pix to a local PSP in this process (`pspOptions`:
 * startLocalPsp's, e.g. delayMs), with a company and its key made by the operator's commands.
 * Answers { server: { base, key, pid }, psp, proc, database }.
 */
export async function startProduction(label, pspOptions = {}, svc = SVC) {
  const { createTestCa, pixProviderEnv, startLocalPsp } = await loadFixtures();
  const ca = createTestCa();
  onCleanup(() => ca.remove());
  const client = { clientId: 'bench', clientSecret: crypto.randomUUID(), pixKey: '11222333000181' };
  const psp = await startLocalPsp({ ca, ...client, validate: false, ...pspOptions });
  onCleanup(() => psp.close());
  const db = await createDatabase(label);
  const key32 = () => crypto.randomBytes(32).toString('base64');
  const env = await serviceEnv({
    databaseUrl: db.url,
    dataDir: tempDir(label),
    SVC_ENV: 'production',
    WEBHOOK_SECRETS_KEY: key32(),
    VAULT_MASTER_KEY: key32(),
    INTERNAL_KEY: key32(),
    ...pixProviderEnv(psp, ca, client),
    CARD_PROVIDER: 'disabled',
    BOLETO_PROVIDER: 'disabled',
  });
  // Production has no demo company: the operator's commands make one and its key.
  const cli = async (...args) => JSON.parse((await run(process.execPath, [svc, ...args, '--json'], { env })).stdout);
  const company = await cli('company', 'create', '--name', 'Bench Ltda', '--document', '11222333000181');
  const { key } = await cli('key', 'issue', '--company', company.id);
  console.log(`Starting svc serve (production, bcb-api-pix → local PSP at ${psp.apiUrl}) on database ${db.name}…`);
  const proc = spawnSvc('serve', env, svc);
  const base = `http://127.0.0.1:${env.PORT}`;
  await waitReady(base, proc);
  return { server: { base, key, pid: proc.pid }, psp, proc, database: db.name };
}

export async function benchProduction({ levels, seconds }) {
  const { server, psp, proc } = await startProduction('production');
  await runFlow(server, 'one-call', 4, Math.min(3, seconds)); // warm-up, and the OAuth2 token
  const rows = [];
  for (const connections of levels) {
    process.stdout.write(`  production one-call c=${String(connections).padEnd(3)} ${seconds} s… `);
    const r = await runFlow(server, 'one-call', connections, seconds);
    console.log(`${r.flowsPerSec.toFixed(0)} flows/s`);
    rows.push({ connections, ...r });
  }
  await proc.stop();
  return { rows, cobs: psp.cobs.size };
}

export function productionReport({ rows, cobs }, tps) {
  const lines = rows.map(
    (r) =>
      `production one-call c=${r.connections}: ${fmt(r.flowsPerSec)} flows/s, p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms` +
      `${tps?.get(r.connections) ? `, ${fmt(r.flowsPerSec / tps.get(r.connections), 3)} of pgbench` : ''}${r.bad ? ` (${r.bad} non-2xx)` : ''}` +
      `; CPU ms per flow: ${cpuCell(r.cpu)}`,
  );
  lines.push(
    `The local PSP registered ${cobs} cobs; it runs in the bench process on the same cores (HTTPS with mutual TLS, no validation), so "bench" is the load generator and the PSP.`,
    'Each flow commits twice (the key, the claimed intent and the txid before the PSP call; the outcome after it) and makes one PUT /cob.',
  );
  return lines.join('\n');
}
