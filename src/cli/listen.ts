/**
 * `svc listen --forward-to URL [--events a,b] [--api-key K] [--api-url URL] [--state FILE]`:
 * forwards the events of one company (the API key's) to a local URL, like
 * `stripe listen`, with no inbound connection: it follows the event log
 * (GET /v2/events?after=…, oldest first) and POSTs each event, re-signed with
 * a local secret with both header sets a delivery carries, printing one line
 * per delivery. The secret, the cursor and the ids recently forwarded are kept
 * in a state file (default ~/.config/svc/listen.json, one entry per API URL
 * and key, mode 0600), so a restart resumes where it stopped with the same
 * secret. A first start forwards only the events that come after it.
 * `--print-secret` prints the entry's secret alone (making the entry as a
 * first start would, if there is none), for a shop's configuration.
 *
 * Event ids are made before their transaction commits, so an event can
 * become visible after a later id already was: each sweep starts LOOKBACK_MS
 * before the cursor and skips the ids it has forwarded (kept that long).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { firstIdAt, timeOfId } from '../lib/ids.js';
import { EVENT_TYPES } from '../modules/events/rules.js';
import { newWebhookSecret, signedHeaders } from '../modules/webhooks/signature.js';
import { ApiError, apiTarget, callApi, ClientUsageError, type ApiTarget } from './api-client.js';
import { SVC } from './invocation.js';

export const LISTEN_USAGE = `usage: ${SVC} listen --forward-to URL [--events a,b] [--api-key K] [--api-url URL] [--state FILE]
       npm run -s svc -- listen --print-secret [--api-key K] [--api-url URL] [--state FILE]
  forwards the events of the API key's company to URL, signed with a local secret (printed at the start)
  --print-secret  prints that secret alone on one line and exits (made and kept as a first start would, if new)
  --events      only these types (${EVENT_TYPES.join(', ')})
  --api-key     default SVC_API_KEY          --api-url  default SVC_API_URL, else http://localhost:$PORT (3000)
  --state       where the secret and the cursor are kept, one entry per API URL and key, owner-only
                (default ~/.config/svc/listen.json; delete it, or the entry, for a new secret and a fresh start)`;

const LOOKBACK_MS = 5_000;
const POLL_MS = 500;
const PAGE = 100;
const FORWARD_TIMEOUT_MS = 10_000;

interface Profile {
  secret: string;
  /** The greatest id forwarded (or skipped); the next sweep starts LOOKBACK_MS before it. */
  cursor: string;
  /** Ids up to this one were there before the first start: never forwarded. */
  since: string;
  /** Ids forwarded within LOOKBACK_MS of the cursor; pruned once per page, so older ids of the last page may remain. */
  recent: string[];
}

interface StoredEvent {
  id: string;
  type: string;
}

function statePath(values: { state?: string | undefined }, env: NodeJS.ProcessEnv): string {
  return values.state ?? path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'svc', 'listen.json');
}

/** One entry per API and key; the key itself is not written, only a hash naming its entry. */
function profileName(api: ApiTarget): string {
  return createHash('sha256').update(`${api.url}\n${api.key}`).digest('hex').slice(0, 16);
}

function readState(file: string): Record<string, Profile> {
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { profiles?: Record<string, Profile> }).profiles ?? {};
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ClientUsageError(`cannot read the state file ${file}: ${(err as Error).message}`);
  }
}

/**
 * Written to a temporary file then renamed: a crash leaves the previous state
 * whole. The file is read again first: another `svc listen` (another API or
 * key) may have written its own entry since, and it is kept.
 */
function writeState(file: string, name: string, profile: Profile): void {
  const profiles = { ...readState(file), [name]: profile };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify({ profiles }, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function eventFilter(raw: string | undefined): ((type: string) => boolean) | undefined {
  if (!raw) return undefined;
  const types = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0 || types.length === 0) throw new ClientUsageError(`--events: unknown event type ${unknown.join(', ') || '(none given)'}`);
  return (type) => types.includes(type);
}

/** The entry of `api` in the state file; made and written on a first start, which forwards what comes next, not the company's history. */
async function profileOf(api: ApiTarget, file: string): Promise<Profile> {
  const name = profileName(api);
  const stored = readState(file)[name];
  if (stored) return stored;
  const newest = await callApi<{ data: StoredEvent[] }>(api, 'GET', '/v2/events?limit=1');
  const since = newest.data[0]?.id ?? firstIdAt('evt', 0);
  const profile = { secret: newWebhookSecret(), cursor: since, since, recent: [] };
  writeState(file, name, profile);
  return profile;
}

/** POSTs one event to the local URL; answers the status (or the error) and the time taken. */
async function forward(url: string, secret: string, event: StoredEvent, body: string): Promise<string> {
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'svc-listen/1',
    ...signedHeaders(secret, event.id, event.type, Math.floor(Date.now() / 1000), body),
  };
  const started = performance.now();
  let outcome: string;
  try {
    const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    await res.arrayBuffer();
    outcome = String(res.status);
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    outcome = `error ${e.cause?.code ?? e.name}`;
  }
  return `${outcome} (${Math.round(performance.now() - started)} ms)`;
}

export async function listen(argv: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      'api-key': { type: 'string' },
      'api-url': { type: 'string' },
      state: { type: 'string' },
      'print-secret': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    print(LISTEN_USAGE);
    return 0;
  }
  const target = values['forward-to'];
  if (values['print-secret']) {
    if (target !== undefined) throw new ClientUsageError('--print-secret forwards nothing: leave out --forward-to');
    print((await profileOf(apiTarget(values, env), statePath(values, env))).secret);
    return 0;
  }
  if (!target || !URL.canParse(target)) throw new ClientUsageError('give the local URL to forward to: --forward-to http://localhost:8080/webhooks');
  const wanted = eventFilter(values.events);
  const api = apiTarget(values, env);
  const file = statePath(values, env);
  const name = profileName(api);
  const state = await profileOf(api, file);
  print(`Ready. Forwarding events to ${target}${values.events ? ` (${values.events})` : ''}.`);
  print(`Webhook signing secret: ${state.secret} (kept in ${file})`);

  let stopped = false;
  let wake: (() => void) | undefined;
  const stop = () => {
    stopped = true;
    wake?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const seen = new Set(state.recent);
  // Written after each event, so a restart forwards each missed event once.
  const done = (id: string) => {
    seen.add(id);
    if (id > state.cursor) state.cursor = id;
    state.recent = [...seen];
    writeState(file, name, state);
  };
  // Once per page: the ids a sweep can no longer see again are forgotten.
  const prune = () => {
    const oldest = timeOfId(state.cursor) - LOOKBACK_MS;
    for (const old of seen) if (timeOfId(old) < oldest) seen.delete(old);
  };

  while (!stopped) {
    let after = firstIdAt('evt', timeOfId(state.cursor) - LOOKBACK_MS);
    // `after` is exclusive: the events up to `since` are never read.
    if (after < state.since) after = state.since;
    let more = true;
    try {
      while (more && !stopped) {
        const page = await callApi<{ data: (StoredEvent & Record<string, unknown>)[]; hasMore: boolean }>(api, 'GET', `/v2/events?after=${after}&limit=${PAGE}`);
        for (const event of page.data) {
          if (stopped) break;
          if (seen.has(event.id)) continue;
          if (!wanted || wanted(event.type)) {
            // The stored text again: it was written by JSON.stringify, so parse and stringify give the same bytes.
            const outcome = await forward(target, state.secret, event, JSON.stringify(event));
            print(`${new Date().toISOString()}  ${event.type.padEnd(20)} ${event.id}  → ${outcome}`);
          }
          done(event.id);
        }
        prune();
        more = page.hasMore;
        after = page.data.at(-1)?.id ?? after;
      }
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw err;
      print(`${new Date().toISOString()}  cannot read the event log: ${(err as Error).message}; trying again`);
    }
    if (!stopped) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, POLL_MS);
      });
    }
  }
  return 0;
}
