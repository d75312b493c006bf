/**
 * Where an operator command runs. With DATABASE_URL (PostgreSQL) the CLI
 * opens the database itself, beside any running server. With the embedded
 * database only one process may open DATA_DIR: when `svc serve` holds it, the
 * command goes to that process over its operator socket (socket.ts);
 * otherwise the CLI opens the data folder itself.
 */
import type { Config } from '../config.js';
import { openRuntime, type Runtime } from '../runtime.js';
import { runCommand, type CommandLine, type CommandResult } from './commands.js';
import { listenForCommands, sendCommand, type OperatorSocket } from './socket.js';

async function runLocally(config: Config, line: CommandLine): Promise<CommandResult> {
  let runtime: Runtime | undefined;
  try {
    // Warnings go to stderr: stdout carries the command's answer (JSON with --json).
    const { pino, destination } = await import('pino');
    runtime = await openRuntime(config, pino({ level: 'warn' }, destination(2)));
    return await runCommand(runtime, line);
  } catch (err) {
    return { code: 1, stdout: '', stderr: `error: ${(err as Error).message}\n` };
  } finally {
    await runtime?.close();
  }
}

export async function operatorCommand(config: Config, line: CommandLine): Promise<CommandResult> {
  if (!config.databaseUrl) {
    const answer = await sendCommand(config.dataDir, line).catch((err: unknown): CommandResult => ({ code: 1, stdout: '', stderr: `error: ${(err as Error).message}\n` }));
    if (answer) return answer;
  }
  return runLocally(config, line);
}

/**
 * The serving process's side, on the embedded database only (with PostgreSQL
 * the CLI needs no server). A socket that cannot be created (a DATA_DIR path
 * longer than a socket path may be) is logged, not fatal: the service runs,
 * and operator commands wait for it to stop.
 */
export async function serveOperatorCommands(runtime: Runtime): Promise<OperatorSocket | undefined> {
  if (runtime.database.engine !== 'pglite') return undefined;
  try {
    return await listenForCommands(runtime.config.dataDir, (line) => runCommand(runtime, line), runtime.log);
  } catch (err) {
    runtime.log.warn({ err: (err as Error).message }, 'no operator socket: svc commands need this server stopped');
    return undefined;
  }
}
