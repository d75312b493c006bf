/**
 * The operator commands (company, key, account, vault keys, providers, Pix
 * webhook) run against an open runtime: the CLI's own, or the one of the
 * `svc serve` process that holds the embedded database (see socket.ts). Both
 * paths run this code, so the output is the same wherever it ran.
 */
import { SVC } from '../cli/invocation.js';
import type { FeePlan } from '../db/types.js';
import { isDomainError, type Outcome } from '../lib/domain-error.js';
import { checkProviders } from '../modules/providers/index.js';
import { isRole, ROLES, type Doer, type Role } from '../modules/users/index.js';
import type { Runtime } from '../runtime.js';

/** The parsed command line of one operator command: the words and the --flags (strings and booleans). */
export interface CommandLine {
  words: string[];
  values: Record<string, string | boolean | undefined>;
}

/** What the CLI prints and its exit code; `usage` asks it to print its usage text after stderr. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  usage?: boolean;
}

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

function role(value: string | undefined): Role {
  const given = need(value, '--role');
  if (!isRole(given)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return given;
}

/** The operator, as the audit log names them: no user, no client address. */
const OPERATOR: Doer = { email: 'operator (svc)', ip: 'local' };

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

async function operate(runtime: Runtime, { words, values }: CommandLine): Promise<Outcome<Output>> {
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
      return output(outcome, (a) => ({ json: a, text: `account ${a.document} created (${a.status}); approve it with ${SVC} account approve --document ${a.document}` }));
    }
    case 'account approve': {
      const outcome = await companies.approveAccount(need(values.document as string, '--document'));
      return output(outcome, (a) => ({ json: a, text: `account ${a.document} approved` }));
    }
    case 'user invite': {
      const { team } = runtime.services.users;
      const outcome = await team.invite(need(values.company as string, '--company'), need(values.email as string, '--email'), role(values.role as string), OPERATOR);
      return output(outcome, (i) => ({ json: { url: i.url, expiresAt: i.expiresAt }, text: `invitation (single use, until ${i.expiresAt}):\n${i.url}` }));
    }
    case 'user list': {
      return output(await runtime.services.users.team.list(need(values.company as string, '--company')), (members) => {
        const lines = members.map((m) => `${m.userId}  ${m.email}  ${m.role}  ${m.name}${m.totpEnabled ? '  (two-step verification)' : ''}`);
        return { json: members, text: lines.join('\n') || 'no members' };
      });
    }
    case 'user set-role': {
      const { team } = runtime.services.users;
      const company = need(values.company as string, '--company');
      const chosen = role(values.role as string);
      const userId = await team.memberByEmail(company, need(values.email as string, '--email'));
      if (isDomainError(userId)) return userId;
      return output(await team.setRole(company, userId, chosen, OPERATOR), (m) => ({ json: m, text: `${m.email} is now ${m.role} of ${company}` }));
    }
    case 'user remove': {
      const { team } = runtime.services.users;
      const company = need(values.company as string, '--company');
      const email = need(values.email as string, '--email');
      const userId = await team.memberByEmail(company, email);
      if (isDomainError(userId)) return userId;
      return output(await team.remove(company, userId, OPERATOR), () => ({ json: { removed: userId }, text: `${email} removed from ${company}` }));
    }
    case 'vault rotate-key': {
      const keyId = await (await runtime.vault()).keys.rotate();
      return { json: { keyId }, text: `new current vault key ${keyId}` };
    }
    case 'vault retire-keys': {
      const retired = await (await runtime.vault()).keys.retire();
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

/** Runs one operator command on `runtime`; a thrown error becomes exit code 1 (2 for a usage error), not a crash. */
export async function runCommand(runtime: Runtime, line: CommandLine): Promise<CommandResult> {
  const json = line.values.json === true;
  try {
    const out = await operate(runtime, line);
    if (isDomainError(out)) {
      // The operator's commands speak English, as their usage and their other output do.
      const message = out.message.en;
      return { code: 1, stdout: '', stderr: json ? `${JSON.stringify({ error: message })}\n` : `error: ${message}\n` };
    }
    return { code: out.failed ? 1 : 0, stdout: `${json ? JSON.stringify(out.json, null, 2) : out.text}\n`, stderr: '' };
  } catch (err) {
    if (err instanceof UsageError) return { code: 2, stdout: '', stderr: `${err.message}\n`, usage: true };
    return { code: 1, stdout: '', stderr: `error: ${(err as Error).message}\n` };
  }
}
