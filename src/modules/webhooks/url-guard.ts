// Webhook target guard (contract "Webhooks"): a merchant-supplied URL must never
// make the service talk to itself, its network or cloud metadata (SSRF).
//
// Rule: an address is public only when ipaddr.js classifies it as 'unicast'
// after unwrapping IPv4-mapped IPv6 (::ffff:a.b.c.d). Every other named range is
// refused: unspecified, broadcast, multicast, linkLocal, loopback,
// carrierGradeNat, private, reserved (192.0.0.0/24, TEST-NETs 192.0.2.0/24,
// 198.51.100.0/24, 203.0.113.0/24, 198.18.0.0/15 benchmarking, 192.88.99.0/24,
// 240.0.0.0/4), as112, amt, uniqueLocal, deprecatedSiteLocal, discard, rfc6145,
// rfc6052 (NAT64), 6to4, teredo, benchmarking, orchid, segmentRouting, 2001:db8::/32...
// Embedding forms (6to4/teredo/NAT64) are refused outright: they could carry a
// private IPv4 and no legitimate webhook receiver needs them.
// IPv6 must additionally lie in 2000::/3 (IANA global unicast): ipaddr.js calls
// the deprecated IPv4-compatible form ::7f00:1 'unicast', which we do not trust.
//
// Ports: the default (443) or 1024 and above. Below 1024 are system services
// (22 ssh, 25 smtp, 0 is no port at all) that no webhook receiver runs on,
// and reaching them from our network is what an SSRF wants.
// Spelling: a backslash before the query is refused (WHATWG would read it as
// '/', other parsers would not: one URL, two meanings); what is stored is the
// WHATWG serialization (`url.href`: lowercase scheme and host, default port
// dropped, dot segments resolved), so the URL shown is the URL called.
//
// WEBHOOK_ALLOW_LOOPBACK (tests only) additionally admits loopback and nothing
// else: 127.0.0.0/8, ::1 and ::ffff:127.x (unwrapped to 127.x). A `localhost`
// name is then accepted only if every answer is loopback.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Text } from '../../lib/i18n/text.js';

/** All A and AAAA answers for a name. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};

export interface GuardOptions {
  allowLoopback: boolean;
  resolve: Resolver;
}

export type GuardResult = { ok: true; url: URL } | { ok: false; reason: Text };

/** dns.lookup with `all: true`; node:dns `lookup` itself fits this type. */
export type DnsLookupAll = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

const MAX_URL_LENGTH = 2048;
/** The lowest port accepted besides the default 443 (see the rule above). */
export const MIN_WEBHOOK_PORT = 1024;
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** Classify one address; anything unparsable is treated as not public (fail closed). */
function classify(ip: string): { range: string; addr: ipaddr.IPv4 | ipaddr.IPv6 } | null {
  // net.isIP is strict (no '1.2.3' or '0x7f.1' shorthand) so only canonical
  // answers from DNS / WHATWG-normalised hosts get here.
  if (net.isIP(ip) === 0) return null;
  try {
    const addr = ipaddr.process(ip); // unwraps ::ffff:a.b.c.d to IPv4
    return { range: addr.range(), addr };
  } catch {
    return null;
  }
}

function isLoopbackAddress(ip: string): boolean {
  return classify(ip)?.range === 'loopback';
}

export function isPublicAddress(ip: string, allowLoopback: boolean): boolean {
  const c = classify(ip);
  if (c === null) return false;
  if (c.range === 'loopback') return allowLoopback;
  if (c.range !== 'unicast') return false;
  if (c.addr.kind() === 'ipv6' && !c.addr.match(IPV6_GLOBAL_UNICAST)) return false;
  return true;
}

/** `localhost`, `localhost.`, `*.localhost`, `*.localhost.` in any case (RFC 6761). */
function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/** URL.hostname keeps IPv6 brackets; undici strips them before connecting. */
function bare(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Reason text when a name's answers are unacceptable, or null when all are fine. */
function answersProblem(hostname: string, answers: readonly string[], allowLoopback: boolean): Text | null {
  if (answers.length === 0) return PROBLEMS.unresolved;
  if (isLocalhostName(hostname)) {
    if (!allowLoopback) return PROBLEMS.localhost;
    // With the test setting, localhost names must stay on this machine.
    return answers.every(isLoopbackAddress) ? null : PROBLEMS.localhostElsewhere;
  }
  // ANY non-public answer refuses the name: a client may pick any of them.
  return answers.every((a) => isPublicAddress(a, allowLoopback)) ? null : PROBLEMS.resolvesNotPublic;
}

export async function checkWebhookUrl(raw: string, opts: GuardOptions): Promise<GuardResult> {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: PROBLEMS.urlTooLong };
  if (raw.split(/[?#]/, 1)[0]!.includes('\\')) return { ok: false, reason: PROBLEMS.backslashes };
  let url: URL;
  try {
    // WHATWG parsing normalises 127.1, 2130706433, 0x7f.0.0.1, 0177.0.0.1 to 127.0.0.1.
    url = new URL(raw);
  } catch {
    return { ok: false, reason: PROBLEMS.notAUrl };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: PROBLEMS.https };
  // Never echo the credentials back; they may be secrets.
  if (url.username !== '' || url.password !== '') return { ok: false, reason: PROBLEMS.credentials };
  // url.port is '' for the default 443 (WHATWG drops it), so '0' and '22' are seen here.
  if (url.port !== '' && Number(url.port) < MIN_WEBHOOK_PORT) return { ok: false, reason: PROBLEMS.port({ min: MIN_WEBHOOK_PORT }) };
  const host = bare(url.hostname);
  if (host === '') return { ok: false, reason: PROBLEMS.noHost };
  if (net.isIP(host) !== 0) {
    return isPublicAddress(host, opts.allowLoopback) ? { ok: true, url } : { ok: false, reason: PROBLEMS.notPublic };
  }
  if (isLocalhostName(host) && !opts.allowLoopback) return { ok: false, reason: PROBLEMS.localhost };
  let answers: string[];
  try {
    answers = await opts.resolve(host);
  } catch {
    return { ok: false, reason: PROBLEMS.unresolved };
  }
  const problem = answersProblem(host, answers, opts.allowLoopback);
  return problem === null ? { ok: true, url } : { ok: false, reason: problem };
}

class WebhookTargetError extends Error {
  readonly code = 'EWEBHOOKPRIVATE';
  constructor(message: string) {
    super(`webhook target refused: ${message}`);
    this.name = 'WebhookTargetError';
  }
}

/**
 * Pre-connect check of where the socket will go, for the delivery code. Node
 * and undici skip `lookup` for IP literals, so those are checked here; names are
 * checked by guardedLookup at connect time. Scheme and credentials were
 * validated at registration (checkWebhookUrl) and are deliberately not
 * re-checked, so loopback tests may use plain http.
 */
export function assertPublicTarget(url: URL, opts: { allowLoopback: boolean }): void {
  const host = bare(url.hostname);
  if (net.isIP(host) !== 0) {
    if (!isPublicAddress(host, opts.allowLoopback)) throw new WebhookTargetError(PROBLEMS.notPublic.en);
  } else if (isLocalhostName(host) && !opts.allowLoopback) {
    throw new WebhookTargetError(PROBLEMS.localhost.en);
  }
}

/**
 * A `lookup` for net/tls connect: resolves every answer, refuses the connection
 * if any is not public, and hands the vetted addresses to the socket so there is
 * no second resolution an attacker could rebind between check and connect.
 */
export function guardedLookup(opts: { allowLoopback: boolean; lookup?: DnsLookupAll }): net.LookupFunction {
  const lookup: DnsLookupAll = opts.lookup ?? dns.lookup;
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err, []);
        return;
      }
      const problem = answersProblem(hostname, addresses.map((a) => a.address), opts.allowLoopback);
      if (problem !== null) {
        callback(new WebhookTargetError(problem.en), []);
        return;
      }
      // Node's happy-eyeballs path asks for all answers; the classic path for one.
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface GuardedDispatcherOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  /**
   * Tests only: replaces the trust store. Leave unset in production so Node's
   * default store (bundled roots + NODE_EXTRA_CA_CERTS) applies.
   */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Tests only: injected DNS. */
  lookup?: DnsLookupAll;
}

/** Connections the delivery Agent keeps open to one receiver (origin) at most. */
const MAX_CONNECTIONS_PER_ORIGIN = 32;

/**
 * undici Agent for deliveries. Redirects are not followed: undici v7 Agents
 * never follow them and no redirect interceptor is composed in; callers must use
 * `request` (or fetch with redirect: 'manual'), never plain fetch.
 */
export function createGuardedDispatcher(opts: GuardedDispatcherOptions): Agent {
  const base = buildConnector({
    timeout: opts.timeoutMs,
    lookup: guardedLookup({ allowLoopback: opts.allowLoopback, ...(opts.lookup ? { lookup: opts.lookup } : {}) }),
    ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
  });
  // Defence in depth: the Agent refuses non-public IP literals itself, since
  // `lookup` is never called for them, even if a caller forgets assertPublicTarget.
  const connect: buildConnector.connector = (connectOpts, callback) => {
    const host = bare(connectOpts.hostname);
    if (net.isIP(host) !== 0 && !isPublicAddress(host, opts.allowLoopback)) {
      callback(new WebhookTargetError('IP address is not public'), null);
      return;
    }
    base(connectOpts, callback);
  };
  // At most MAX_CONNECTIONS_PER_ORIGIN keep-alive connections per receiver: the delivery loop keeps
  // hundreds of sends in flight, and one TLS handshake per send to the same receiver cost more CPU
  // than the sends. Sends past the limit wait for a free connection inside their own timeout.
  return new Agent({ connect, connections: MAX_CONNECTIONS_PER_ORIGIN, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
}
