/**
 * `svc`: the roles and the operator commands.
 *
 *   svc serve | api | vault | worker
 *   svc vault rotate-key | retire-keys
 *   svc company create --name N --document D
 *   svc company set-fees ID [--pix-bp N] [--boleto-cents N] [--card-bp N] [--card-2-6-bp N] [--card-7-12-bp N]
 *   svc key issue --company ID [--scopes a,b]     svc key revoke KEY_ID     svc key list --company ID
 *   svc account create --document D --name N       svc account approve --document D
 *   svc providers check                            svc pix register-webhook
 *   svc user invite --company ID --email E --role R   svc user list --company ID
 *   svc user set-role --company ID --email E --role R svc user remove --company ID --email E
 *   svc listen --forward-to URL [--events a,b]     svc trigger <event type>   (HTTP clients: src/cli/)
 *
 * Every operator command takes --json for machine-readable output. With the
 * embedded database, a command given while `svc serve` runs is run by that
 * server (src/operator/).
 */
import { parseArgs } from 'node:util';
import { isClientCommand, runClientCommand } from './cli/client-commands.js';
import { SVC } from './cli/invocation.js';
import type { ConfigReader } from './config.js';
import type { Role } from './roles.js';

const USAGE = `usage: ${SVC} <command>   (in the repository; from elsewhere: npm --prefix /path/to/it run svc -- <command>)
  serve                      API + vault + worker in one process (the embedded default)
  api | vault | worker       one role
  vault rotate-key           a new current encryption key (the previous one stays usable 10 minutes at least)
  vault retire-keys          remove keys superseded more than 10 minutes ago
  company create --name N --document D
  company set-fees ID [--pix-bp N] [--boleto-cents N] [--card-bp N] [--card-2-6-bp N] [--card-7-12-bp N]
  key issue --company ID [--scopes payments:read,payments:write,webhooks:read,webhooks:write]
  key revoke KEY_ID
  key list --company ID
  account create --document D --name N
  account approve --document D
  user invite --company ID --email E --role admin|finance|developer|viewer
                             prints the dashboard invitation URL (single use, 72 hours)
  user list --company ID     the company's dashboard members and their roles
  user set-role --company ID --email E --role R
  user remove --company ID --email E   (a company keeps at least one admin)
  providers check            which connector serves each method; proves each configured one answers (exit 1 if not)
  pix register-webhook       registers PIX_WEBHOOK_URL at the PSP (PUT /webhook/{chave}; also done when the API starts)
  listen --forward-to URL    forwards the API key's events to a local URL, signed with a local secret (${SVC} listen -h)
  trigger <event type>       makes a sandbox payment that emits that event (${SVC} trigger -h)
options: --json (machine-readable output)`;

const OPTIONS = {
  json: { type: 'boolean' },
  name: { type: 'string' },
  document: { type: 'string' },
  company: { type: 'string' },
  scopes: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  'pix-bp': { type: 'string' },
  'boleto-cents': { type: 'string' },
  'card-bp': { type: 'string' },
  'card-2-6-bp': { type: 'string' },
  'card-7-12-bp': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function main(argv: string[]): Promise<number> {
  // HTTP clients of a running service with an API key (src/cli/), not operator commands on the database.
  if (isClientCommand(argv[0])) return runClientCommand(argv[0], argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return positionals.length === 0 && !values.help ? 2 : 0;
  }
  // The service's modules (Fastify, the database drivers, every domain module) are loaded only by the
  // commands that use them: listen and trigger, above, start in about half the CPU without them.
  const [{ ConfigError, loadConfig }, { operatorCommand }, { startRole }, { openRuntime, StartError }] = await Promise.all([
    import('./config.js'),
    import('./operator/index.js'),
    import('./roles.js'),
    import('./runtime.js'),
  ]);
  const role = positionals[0] as Role;
  const runsRole = positionals.length === 1 && (role === 'serve' || role === 'api' || role === 'vault' || role === 'worker');
  // The vault's commands (vault rotate-key, retire-keys) read the configuration as the vault does.
  const reader: ConfigReader = runsRole ? role : role === 'vault' ? 'vault' : 'operator';
  let config;
  try {
    config = loadConfig(process.env, reader);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      return 78;
    }
    throw err;
  }
  if (runsRole) {
    let running;
    try {
      const runtime = await openRuntime(config);
      running = await startRole(runtime, role).catch(async (err: unknown) => {
        await runtime.close();
        throw err;
      });
    } catch (err) {
      if (!(err instanceof StartError)) throw err;
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    const shutdown = async () => {
      await running.stop();
      process.exit(0);
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
    return -1; // keep running
  }
  const result = await operatorCommand(config, { words: positionals, values });
  process.stdout.write(result.stdout);
  process.stderr.write(result.usage ? `${result.stderr}${USAGE}\n` : result.stderr);
  return result.code;
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
