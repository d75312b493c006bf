#!/usr/bin/env node
// `npm run bench:ab -- DIR_A DIR_B [rounds] [seconds] [connections] [--turns]`: the service CPU per sandbox
// Pix sale (POST /v2/payment-intents with confirm: true) of two builds, loaded at the same time.
//
// On a shared machine, flows/s and even CPU per flow move by 10-30 % between two runs of one build
// (the host's other tenants), which hides any change smaller than that. Here both builds run side by
// side, each `svc serve` on its own fresh database, each driven by its own closed loop of `connections`
// clients, so both see the same noise; each round compares their CPU per sale (from /proc). The loop
// that starts first alternates between rounds. Run it with the same folder twice to see what "no
// difference" looks like on the machine (a few per cent).
//
// With --turns, A and B are loaded one after the other in each round (which goes first alternates),
// and their sales per second are compared too: for a change to latency rather than CPU (at 1
// connection, a sale is its own CPU plus PostgreSQL's, in turn), which two loops at once would blur.
//
// DIR_A and DIR_B are checkouts of the project, each built (`npm run build`): their bin/svc.js and
// dist/ are run with this repository's node_modules when they have none. For example:
//   git worktree add /tmp/base HEAD~1 && ln -s "$PWD/node_modules" /tmp/base/ && (cd /tmp/base && npm run build)
//   npm run bench:ab -- /tmp/base .
import fs from 'node:fs';
import path from 'node:path';
import { runFlow } from './http.mjs';
import { cleanup, createDatabase, fmt, installSignalHandlers, serviceEnv, startServe, tempDir } from './lib.mjs';

function usage(message) {
  console.error(`${message}\nusage: npm run bench:ab -- DIR_A DIR_B [rounds (4)] [seconds (10)] [connections (8)] [--turns]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const turns = args.includes('--turns');
const [dirA, dirB, ...numbers] = args.filter((arg) => arg !== '--turns');
if (!dirA || !dirB) usage('two build folders are needed');
const [rounds = 4, seconds = 10, connections = 8] = numbers.map(Number);
if (![rounds, seconds, connections].every((n) => Number.isInteger(n) && n > 0)) usage('rounds, seconds and connections are positive integers');
for (const dir of [dirA, dirB]) if (!fs.existsSync(path.join(dir, 'dist', 'cli.js'))) usage(`${dir}: no dist/cli.js (run npm run build there)`);

/** `svc serve` of the build in `dir`, on a fresh database and data folder. */
async function start(dir, label) {
  const db = await createDatabase(`ab_${label}`);
  return startServe(await serviceEnv({ databaseUrl: db.url, dataDir: tempDir(`ab-${label}`) }), path.resolve(dir, 'bin', 'svc.js'));
}

/** One build's sales (one-call Pix flows) for `secs`, with its CPU ms per sale. */
async function measured(service, secs = seconds) {
  const { flows, cpu } = await runFlow(service, 'one-call', connections, secs);
  return { created: flows, msPerSale: cpu.svc };
}

/** A's and B's sales and CPU ms per sale over one round: both loaded at once (B's loop first when `bFirst`), or in turns. */
async function round([a, b], bFirst) {
  if (turns) {
    const first = await measured(bFirst ? b : a);
    const second = await measured(bFirst ? a : b);
    return bFirst ? [second, first] : [first, second];
  }
  return Promise.all(bFirst ? [measured(b), measured(a)].reverse() : [measured(a), measured(b)]);
}

installSignalHandlers();
try {
  const services = [await start(dirA, 'a'), await start(dirB, 'b')];
  console.log(`A ${path.resolve(dirA)}\nB ${path.resolve(dirB)}\nwarm-up 5 s, then ${rounds} rounds of ${seconds} s, ${connections} connections to each${turns ? ', in turns' : ''}…`);
  await Promise.all(services.map((s) => measured(s, 5)));
  const ratios = [];
  const salesRatios = [];
  for (let r = 0; r < rounds; r++) {
    const [a, b] = await round(services, r % 2 === 1);
    ratios.push(b.msPerSale / a.msPerSale);
    salesRatios.push(b.created / a.created);
    console.log(`round ${r + 1}: A ${a.created} sales, ${fmt(a.msPerSale, 3)} ms CPU/sale · B ${b.created} sales, ${fmt(b.msPerSale, 3)} ms CPU/sale · B/A ${fmt(ratios.at(-1), 3)}`);
  }
  const summary = (xs) => `mean ${fmt(xs.reduce((sum, x) => sum + x, 0) / xs.length, 3)} (min ${fmt(Math.min(...xs), 3)}, max ${fmt(Math.max(...xs), 3)})`;
  console.log(`B/A service CPU per sale: ${summary(ratios)}`);
  if (turns) console.log(`B/A sales per second: ${summary(salesRatios)}`);
} finally {
  await cleanup();
}
