/*
 * Calls from the frame to its own origin, the vault: GET keys and POST
 * tokenize. Why a module: the network rules live here (relative URLs, no
 * cookies, a 20-second limit, JSON or nothing) and the one rule that keeps a
 * seller's script from swapping the key: keys come from the vault, never
 * from the parent page.
 */

/** {status, ok, body} of a request relative to this page (a vault under a path prefix works too). */
function request(path, init) {
  // No cookies: the ticket is the only credential.
  init.credentials = 'omit';
  const ctrl = typeof AbortController === 'function' ? new AbortController() : null;
  const timer = ctrl && setTimeout(() => ctrl.abort(), 20000);
  if (ctrl) init.signal = ctrl.signal;
  return fetch(path, init).then(
    (res) =>
      res.text().then((text) => {
        clearTimeout(timer);
        let body = null;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        return { status: res.status, ok: res.ok, body };
      }),
    (e) => {
      clearTimeout(timer);
      throw e;
    },
  );
}

/**
 * The published key with exactly this keyId (the one delivered with the
 * intent), or null. A cached list from before a key rotation may lack a new
 * key: retry once past the cache. Throws {code, message} when /keys fails.
 */
export async function findKey(keyId, reload = false) {
  const r = await request('keys', reload ? { cache: 'no-cache' } : {});
  if (!r.ok) throw { code: r.status === 429 ? 'RATE_LIMITED' : 'SERVICE_UNAVAILABLE', message: 'GET /keys answered ' + r.status };
  const keys = r.body && Array.isArray(r.body.keys) ? r.body.keys : [];
  for (const key of keys) {
    if (key && key.keyId === keyId && key.jwk) return key.jwk;
  }
  return reload ? null : findKey(keyId, true);
}

/** POST tokenize with the encrypted card; {status, ok, body} whatever the answer, its messages in `locale`. */
export function tokenize(ticket, keyId, encryptedCard, locale) {
  return request('tokenize', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': locale },
    body: JSON.stringify({ ticket, keyId, encryptedCard }),
  });
}

/** The error code of a failed tokenize: the vault's own when well-formed, else one read from the status. */
export function errorCode(r) {
  const b = r.body || {};
  if (typeof b.code === 'string' && /^[A-Z][A-Z_]{1,63}$/.test(b.code)) return b.code;
  return r.status === 401 ? 'TICKET_EXPIRED' : r.status === 429 ? 'RATE_LIMITED'
    : r.status === 400 || r.status === 422 ? 'VALIDATION_ERROR' : r.status === 502 ? 'PROVIDER_ERROR' : 'SERVICE_UNAVAILABLE';
}
