/**
 * The embedded database admits one process. While `svc serve` holds it, the
 * operator CLI sends its command to that process over a Unix socket in
 * DATA_DIR, created with mode 0600 so that only the user who runs the server
 * can connect (whoever can open it can issue API keys). The server runs the
 * same command code (commands.ts) on its open runtime and answers what the
 * CLI would have printed, with its exit code.
 *
 * One request per connection, one JSON line each way:
 *   → {"words": ["key", "issue"], "values": {"company": "cmp_…", "json": true}}
 *   ← {"code": 0, "stdout": "…", "stderr": "…", "usage": false}
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import type { CommandLine, CommandResult } from './commands.js';

const SOCKET_FILE = 'svc.sock';
/** A command line is a few hundred bytes; anything longer is not one. */
const MAX_REQUEST_BYTES = 64 * 1024;
/** A connection that has not sent its command within this time is dropped (it would hold the shutdown). */
const REQUEST_TIMEOUT_MS = 10_000;

function socketPath(dataDir: string): string {
  return path.join(dataDir, SOCKET_FILE);
}

function isCommandLine(value: unknown): value is CommandLine {
  if (typeof value !== 'object' || value === null) return false;
  const { words, values } = value as Record<string, unknown>;
  if (!Array.isArray(words) || !words.every((w) => typeof w === 'string')) return false;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return false;
  return Object.values(values).every((v) => typeof v === 'string' || typeof v === 'boolean');
}

/** Reads one newline-terminated JSON line from `socket` (at most MAX_REQUEST_BYTES); rejects on a longer one or an early end. */
function readLine(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
      else if (text.length > MAX_REQUEST_BYTES) reject(new Error('request too long'));
    });
    socket.once('end', () => reject(new Error('connection ended before a full line')));
    socket.once('error', reject);
  });
}

export interface OperatorSocket {
  close(): Promise<void>;
}

/**
 * Listens on DATA_DIR/svc.sock for operator commands and runs them with
 * `run`. The caller holds the database lock, so a socket file already there
 * was left by a process that died: it is replaced. Resolves once listening.
 */
export async function listenForCommands(dataDir: string, run: (line: CommandLine) => Promise<CommandResult>, log: Logger): Promise<OperatorSocket> {
  const file = socketPath(dataDir);
  fs.rmSync(file, { force: true });
  const server = net.createServer((socket) => {
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    readLine(socket)
      .then(async (text) => {
        socket.setTimeout(0); // the command itself may take as long as it takes (providers check)
        const line: unknown = JSON.parse(text);
        if (!isCommandLine(line)) throw new Error('not a command line');
        log.info({ command: line.words.slice(0, 2).join(' ') }, 'operator command');
        socket.end(`${JSON.stringify(await run(line))}\n`);
      })
      .catch((err: unknown) => {
        log.warn({ err: (err as Error).message }, 'operator socket: bad request');
        socket.destroy();
      });
  });
  // The socket is created by bind() inside listen(), synchronously: with this umask it is born 0600,
  // never reachable by another user even for an instant; the chmod then states it explicitly.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(umask);
  }
  fs.chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        // Commands in progress finish first (their runtime closes after this).
        server.close(() => {
          fs.rmSync(file, { force: true });
          resolve();
        });
      }),
  };
}

/**
 * Sends `line` to the server holding DATA_DIR and resolves with its answer,
 * or with undefined when no server listens there (no socket file, or one left
 * by a process that is gone): then the CLI opens the database itself.
 */
export function sendCommand(dataDir: string, line: CommandLine): Promise<CommandResult | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath(dataDir));
    let text = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(line)}\n`);
    });
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('end', () => {
      try {
        resolve(JSON.parse(text) as CommandResult);
      } catch {
        reject(new Error('the running server closed the operator socket without an answer; see its log'));
      }
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (!connected && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED')) resolve(undefined);
      else reject(err);
    });
  });
}
