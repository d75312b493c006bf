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
 *
 * Every operator command takes --json for machine-readable output.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import type { FeePlan } from './db/types.js';
import { isDomainError, type Outcome } from './lib/domain-error.js';
import { startRole, type Role } from './roles.js';
import { checkProviders } from './modules/providers/index.js';
import { openRuntime, type Runtime } from './runtime.js';

const USAGE = `usage: svc <command>
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
  providers check            which connector serves each method; proves each configured one answers (exit 1 if not)
  pix register-webhook       registers PIX_WEBHOOK_URL at the PSP (PUT /webhook/{chave}; also done when the API starts)
options: --json (machine-readable output)`;

const OPTIONS = {
  json: { type: 'boolean' },
  name: { type: 'string' },
  document: { type: 'string' },
  company: { type: 'string' },
  scopes: { type: 'string' },
  'pix-bp': { type: 'string' },
  'boleto-cents': { type: 'string' },
  'card-bp': { type: 'string' },
  'card-2-6-bp': { type: 'string' },
  'card-7-12-bp': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing ${flag}`);
  return value;
}

function feeChanges(values: Record<string, unknown>): Partial<FeePlan> {
  const map: [string, keyof FeePlan][] = [
    ['pix-bp', 'pixBp'],
    ['boleto-cents', 'boletoFlatCents'],
    ['card-bp', 'card1Bp'],
    ['card-2-6-bp', 'card2to6Bp'],
    ['card-7-12-bp', 'card7to12Bp'],
  ];
  const out: Partial<FeePlan> = {};
  for (const [flag, key] of map) {
    const raw = values[flag];
    if (raw === undefined) continue;
    if (!/^\d+$/.test(String(raw))) throw new UsageError(`--${flag} must be a whole number`);
    out[key] = Number(raw);
  }
  if (Object.keys(out).length === 0) throw new UsageError('give at least one rate to change');
  return out;
}

interface Output {
  text: string;
  json: unknown;
  /** The command ran but what it checked is not right: exit 1 after printing. */
  failed?: boolean;
}

/** The output of a command, or the service's refusal as it is (its message is what the operator reads). */
function output<T>(outcome: Outcome<T>, render: (value: T) => Output): Outcome<Output> {
  return isDomainError(outcome) ? outcome : render(outcome);
}

async function operate(runtime: Runtime, words: string[], values: Record<string, unknown>): Promise<Outcome<Output>> {
  const { companies } = runtime.services;
  const [noun, verb, arg] = words;
  switch (`${noun} ${verb}`) {
    case 'company create': {
      const outcome = await companies.createCompany(need(values.name as string, '--name'), need(values.document as string, '--document'));
      return output(outcome, (c) => ({ json: c, text: `company ${c.id} created: ${c.name} (${c.document})` }));
    }
    case 'company set-fees': {
      const outcome = await companies.setFees(need(arg, 'company ID'), feeChanges(values));
      return output(outcome, (c) => ({ json: c, text: `fees of ${c.id}: ${JSON.stringify(c.feePlan)}` }));
    }
    case 'key issue': {
      const scopes = (values.scopes as string | undefined)?.split(',').map((s) => s.trim()).filter(Boolean);
      const outcome = await companies.issueKey(need(values.company as string, '--company'), scopes);
      return output(outcome, (k) => ({ json: k, text: `key ${k.id} issued (${k.scopes?.join(',') ?? 'all scopes'}). Store it now; it is not shown again:\n${k.key}` }));
    }
    case 'key revoke': {
      const outcome = await companies.revokeKey(need(arg, 'KEY_ID'));
      return output(outcome, (k) => ({ json: k, text: `key ${k.id} revoked at ${k.revokedAt}` }));
    }
    case 'key list': {
      return output(await companies.listKeys(need(values.company as string, '--company')), (keys) => {
        const lines = keys.map((k) => `${k.id}  …${k.hint}  ${k.environment}  ${k.scopes?.join(',') ?? 'all scopes'}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`);
        return { json: keys, text: lines.join('\n') || 'no keys' };
      });
    }
    case 'account create': {
      const outcome = await companies.createAccount(need(values.document as string, '--document'), need(values.name as string, '--name'));
      return output(outcome, (a) => ({ json: a, text: `account ${a.document} created (${a.status}); approve it with svc account approve --document ${a.document}` }));
    }
    case 'account approve': {
      const outcome = await companies.approveAccount(need(values.document as string, '--document'));
      return output(outcome, (a) => ({ json: a, text: `account ${a.document} approved` }));
    }
    case 'vault rotate-key': {
      const keyId = await runtime.vault().keys.rotate();
      return { json: { keyId }, text: `new current vault key ${keyId}` };
    }
    case 'vault retire-keys': {
      const retired = await runtime.vault().keys.retire();
      return { json: { retired }, text: retired.length > 0 ? `retired ${retired.join(', ')}` : 'no key to retire' };
    }
    case 'providers check': {
      const checks = await checkProviders(runtime.config.providers, runtime.deps.providers);
      const lines = checks.map((c) => `${c.method.padEnd(11)} ${c.provider.padEnd(11)} ${c.ok ? 'ok  ' : 'FAIL'} ${c.detail}`);
      return { json: checks, text: lines.join('\n'), failed: checks.some((c) => !c.ok) };
    }
    case 'pix register-webhook': {
      const pix = runtime.deps.providers.PIX;
      if (!pix?.registerNotifications) throw new UsageError('PIX_PROVIDER is not bcb-api-pix: there is no PSP to register a webhook with');
      const detail = await pix.registerNotifications();
      return { json: { registered: detail }, text: detail };
    }
    default:
      throw new UsageError(`unknown command: ${words.join(' ')}`);
  }
}

async function main(argv: string[]): Promise<number> {
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
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      return 78;
    }
    throw err;
  }
  const role = positionals[0] as Role;
  if (positionals.length === 1 && (role === 'serve' || role === 'api' || role === 'vault' || role === 'worker')) {
    const runtime = await openRuntime(config);
    const running = await startRole(runtime, role);
    const shutdown = async () => {
      await running.stop();
      process.exit(0);
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
    return -1; // keep running
  }
  let runtime: Runtime | undefined;
  try {
    // Warnings go to stderr: stdout carries the command's answer (JSON with --json).
    const { pino, destination } = await import('pino');
    runtime = await openRuntime(config, pino({ level: 'warn' }, destination(2)));
    const out = await operate(runtime, positionals, values);
    if (isDomainError(out)) {
      process.stderr.write(values.json ? `${JSON.stringify({ error: out.message })}\n` : `error: ${out.message}\n`);
      return 1;
    }
    process.stdout.write(`${values.json ? JSON.stringify(out.json, null, 2) : out.text}\n`);
    return out.failed ? 1 : 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`error: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await runtime?.close();
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
