// Part "slow-psp": the production one-call Pix flow (as part "production") when the PSP takes as long
// as real ones do. One `svc serve` with SVC_ENV=production and one local PSP, in one run: first the PSP
// answers at once and `baseline` clients buy (the rate the build reaches when the PSP costs nothing),
// then the PSP holds each answer (OAuth2 token and PUT /cob alike) `delayMs` and `buyers` clients buy.
// A sale waits for the PSP with nothing of the service held (no database connection, no lock), so the
// many buyers should keep the service as busy as the few did: the ratio of the two rates is the figure,
// with the latencies, every non-2xx answer, connection error and client timeout (all must be 0), the peak
// of PostgreSQL connections the service had open and busy, and the TLS connections the PSP accepted.
import { adminQuery, cpuCell, fmt, sleep } from './lib.mjs';
import { runFlow } from './http.mjs';
import { startProduction } from './production.mjs';

/** Samples the database's sessions (open, and running a statement) every 250 ms until `stop()`; answers the peaks. */
function watchSessions(database) {
  const peak = { open: 0, busy: 0 };
  let running = true;
  const done = (async () => {
    while (running) {
      const { rows } = await adminQuery(
        "SELECT count(*)::int AS open, count(*) FILTER (WHERE state <> 'idle')::int AS busy FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [database],
      );
      peak.open = Math.max(peak.open, rows[0].open);
      peak.busy = Math.max(peak.busy, rows[0].busy);
      await sleep(250);
    }
  })();
  return async () => {
    running = false;
    await done;
    return peak;
  };
}

export async function benchSlowPsp({ seconds, delayMs, buyers, baseline }) {
  // Idle PSP connections are kept a minute, as PSPs' gateways keep them (Node's 5 s would have the service
  // reopen, with a mutual-TLS handshake each, the connections a dip in the load left idle for 3 s).
  const { server, psp, proc, database } = await startProduction('slowpsp', { keepAliveMs: 60_000 });
  const warmUp = Math.min(3, seconds);
  const level = async (label, connections) => {
    process.stdout.write(`  ${label} c=${String(connections).padEnd(3)} ${seconds} s… `);
    const connectionsBefore = psp.connections;
    const stop = watchSessions(database);
    const r = await runFlow(server, 'one-call', connections, seconds);
    const sessions = await stop();
    console.log(`${r.flowsPerSec.toFixed(0)} flows/s`);
    return { label, connections, ...r, sessions, pspConnections: psp.connections - connectionsBefore };
  };
  await runFlow(server, 'one-call', baseline, warmUp); // warm-up, and the OAuth2 token
  const instant = await level('instant PSP', baseline);
  psp.delay(delayMs);
  await runFlow(server, 'one-call', buyers, warmUp); // the connections a slower PSP needs, opened once
  const slow = await level(`PSP ${delayMs} ms`, buyers);
  await proc.stop();
  return { delayMs, instant, slow, tokenRequests: psp.tokenRequests, cobs: psp.cobs.size };
}

export function slowPspReport({ delayMs, instant, slow, tokenRequests, cobs }) {
  const row = (r) =>
    `${r.label.padEnd(13)} c=${String(r.connections).padEnd(3)}: ${fmt(r.flowsPerSec)} sales/s, p50 ${fmt(r.p50, 1)} ms, p99 ${fmt(r.p99, 1)} ms; ` +
    `non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}; PostgreSQL sessions at most ${r.sessions.open} open, ${r.sessions.busy} busy; ` +
    `${r.pspConnections} new PSP connections; CPU ms per sale: ${cpuCell(r.cpu)}`;
  const ratio = slow.flowsPerSec / instant.flowsPerSec;
  const lines = [
    row(instant),
    row(slow),
    `Sales/s with the PSP holding each answer ${delayMs} ms at c=${slow.connections}, over sales/s with an instant PSP at c=${instant.connections}: ${fmt(ratio, 3)} (target 0.9 or more; p99 target under ${delayMs + 150} ms).`,
    `The PSP issued ${tokenRequests} OAuth2 tokens and registered ${cobs} cobs. Client timeouts: autocannon's (10 s).`,
  ];
  const bad = [instant, slow].filter((r) => r.bad > 0);
  if (bad.length) lines.push(`WARNING: non-2xx answers, errors or timeouts at ${bad.map((r) => r.label).join(', ')}: every buyer must get its sale.`);
  return lines.join('\n');
}
