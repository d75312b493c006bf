// Part "pgbench": a TPC-B baseline on the same PostgreSQL server, so the service's
// throughput can be read relative to what the database alone does on this machine.
import { spawn } from 'node:child_process';
import { createDatabase, onCleanup, parkIfStopping } from './lib.mjs';

let child; // the running pgbench, if any

async function pgbench(args, url) {
  await parkIfStopping();
  return new Promise((resolve, reject) => {
    let out = '';
    child = spawn('pgbench', [...args, url], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (c) => (out += c));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`pgbench ${args.join(' ')} failed (${code}):\n${out}`))));
  });
}

/** Returns a Map: clients → tps. */
export async function benchPgbench({ levels, seconds }) {
  const db = await createDatabase('pgbench');
  onCleanup(() => child?.kill('SIGKILL')); // runs before the DROP registered above
  console.log(`pgbench -i -s 10 on ${db.name}…`);
  await pgbench(['-i', '-s', '10', '-q'], db.url);
  const tps = new Map();
  for (const connections of levels) {
    process.stdout.write(`  pgbench c=${String(connections).padEnd(3)} ${seconds} s… `);
    // -j 2: one thread per core (pgbench lowers it to the client count itself); -n: no vacuum between runs.
    const out = await pgbench(['-c', String(connections), '-j', '2', '-T', String(Math.ceil(seconds)), '-n'], db.url);
    const match = out.match(/tps = ([\d.]+) \(without initial connection time\)/);
    if (!match) throw new Error(`no tps line in pgbench output:\n${out}`);
    tps.set(connections, Number(match[1]));
    console.log(`${match[1]} tps`);
  }
  return tps;
}

export const pgbenchReport = (tps) => [...tps].map(([c, t]) => `pgbench TPC-B (scale 10) c=${c}: ${t.toFixed(1)} tps`).join('\n');
