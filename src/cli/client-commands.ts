/** The `svc` commands that are HTTP clients of a running service (listen, trigger): their errors and exit codes. */
import { ApiError, ClientUsageError } from './api-client.js';
import { listen, LISTEN_USAGE } from './listen.js';
import { trigger, TRIGGER_USAGE } from './trigger.js';

const COMMANDS = {
  listen: { run: listen, usage: LISTEN_USAGE },
  trigger: { run: trigger, usage: TRIGGER_USAGE },
} as const;

export function isClientCommand(word: string | undefined): word is keyof typeof COMMANDS {
  return word !== undefined && Object.hasOwn(COMMANDS, word);
}

/** Runs one; answers the exit code: 0 done, 1 refused by the API or unreachable, 2 bad usage. */
export async function runClientCommand(name: keyof typeof COMMANDS, argv: string[]): Promise<number> {
  const command = COMMANDS[name];
  try {
    return await command.run(argv, process.env, (line) => process.stdout.write(`${line}\n`));
  } catch (err) {
    const e = err as Error & { code?: string };
    if (err instanceof ClientUsageError || e.code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${e.message}\n${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`error: ${err instanceof ApiError ? e.message : `cannot reach the API: ${e.message}`}\n`);
    return 1;
  }
}
