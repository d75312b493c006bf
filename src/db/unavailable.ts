/**
 * Recognises the errors that mean "the database cannot be reached right now"
 * (refused, reset, timed out, server shutting down), as opposed to a bug or a
 * constraint violation. Those become 503 SERVICE_UNAVAILABLE with Retry-After;
 * the process stays up and the pool reconnects once the server is back.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'EPIPE']);
// 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections,
// 57014 query_canceled (statement_timeout), 25P03 idle_in_transaction_session_timeout.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '25P03']);
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /connect ECONNREFUSED/i,
  // pg's client-side query_timeout: the network or the server went silent.
  /Query read timeout/i,
  /Client was closed and is not queryable/i,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATES.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  // pg reports a refused connection to a host with several addresses as an AggregateError.
  return Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable);
}
