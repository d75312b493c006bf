/**
 * Raw HTTP/1.1 over a socket, for requests fetch refuses to send (control
 * bytes in a header, unknown methods, spaces in the path, broken request
 * lines): writes the bytes, half-closes, and parses whatever comes back
 * before the server closes the connection.
 */
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything received, for failure messages. */
  text: string;
}

/** Decodes a chunked body (the rest of the stream after the head). */
function dechunk(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const eol = text.indexOf('\r\n', at);
    if (eol < 0) return out;
    const size = parseInt(text.slice(at, eol), 16);
    if (!size) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

export function parseRawResponse(text: string): RawResponse | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3}) /.exec(statusLine ?? '')?.[1]);
  if (!status) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = text.slice(end + 4);
  const length = headers['content-length'];
  const body = headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : length !== undefined ? rest.slice(0, Number(length)) : rest;
  return { status, headers, body, text };
}

/** Whether `text` holds a whole response (its head, and the body its Content-Length or chunking announces). */
function complete(text: string): boolean {
  const parsed = parseRawResponse(text);
  if (!parsed) return false;
  const rest = text.length - text.indexOf('\r\n\r\n') - 4;
  if (parsed.headers['transfer-encoding'] === 'chunked') return text.endsWith('0\r\n\r\n');
  return parsed.headers['content-length'] !== undefined && rest >= Number(parsed.headers['content-length']);
}

/**
 * Sends `bytes` on a new connection; resolves with the parsed answer, or
 * undefined when none came within `timeoutMs`. The socket is half-closed only
 * after `endAfterMs` without a whole answer (a request the parser is still
 * waiting on): half-closing at once races the answer of a slow handler, since
 * Node's server ends a socket whose peer has ended.
 */
export function rawHttp(port: number, bytes: Buffer, timeoutMs = 10_000, endAfterMs = 1_500): Promise<{ response?: RawResponse; text: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const endTimer = setTimeout(() => socket.end(), endAfterMs);
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    const text = () => Buffer.concat(chunks).toString('latin1');
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (complete(text())) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      clearTimeout(endTimer);
      resolve({ response: parseRawResponse(text()), text: text() });
    });
  });
}
