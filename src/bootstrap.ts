/**
 * First start of a sandbox: with no company in the database, create a demo
 * company, two approved recipient accounts and a sandbox API key, so the
 * first curl works without the operator CLI. The demo key is kept in
 * DATA_DIR/sandbox-key.txt (mode 0600, sandbox only) so every later start can
 * print it again; the database itself stores only its hash.
 *
 * The demo company also gets its dashboard admin, DEMO_ADMIN_EMAIL, with a
 * random password kept in DATA_DIR/dashboard-password.txt (mode 0600) and
 * printed beside the dashboard's address; a data folder from before the
 * dashboard (the demo company, no member) gets the admin at its next start.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SVC } from './cli/invocation.js';
import { isDomainError, type Outcome } from './lib/domain-error.js';
import { DEMO } from './modules/demo/index.js';
import { GENERATED_PASSWORD_SCRYPT } from './modules/users/index.js';
import type { Runtime } from './runtime.js';

export interface DemoSetup {
  companyId: string;
  companyName: string;
  key: string | undefined;
  accounts: { name: string; document: string }[];
  created: boolean;
  /** The demo admin's sign-in, when its password file is there. */
  dashboard?: { email: string; password: string };
}

export const DEMO_ADMIN_EMAIL = 'demo@loja.example';
const DEMO_ADMIN_NAME = 'Demo';
const DASHBOARD_PASSWORD_FILE = 'dashboard-password.txt';

/** The demo admin's sign-in: created (with a new random password) when the demo company has no member, else read from its file. */
async function ensureDemoAdmin(runtime: Runtime, companyId: string): Promise<DemoSetup['dashboard']> {
  const file = path.join(runtime.config.dataDir, DASHBOARD_PASSWORD_FILE);
  const { team } = runtime.services.users;
  if (await team.hasMembers(companyId)) {
    return fs.existsSync(file) ? { email: DEMO_ADMIN_EMAIL, password: fs.readFileSync(file, 'utf8').trim() } : undefined;
  }
  // 18 random bytes: 24 characters of base64url, far past the 12 a password needs;
  // nobody chose it, so its hash needs no OWASP work factor (GENERATED_PASSWORD_SCRYPT).
  const password = randomBytes(18).toString('base64url');
  await team.createAdmin(companyId, DEMO_ADMIN_EMAIL, DEMO_ADMIN_NAME, password, GENERATED_PASSWORD_SCRYPT);
  fs.mkdirSync(runtime.config.dataDir, { recursive: true });
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return { email: DEMO_ADMIN_EMAIL, password };
}

export async function ensureDemo(runtime: Runtime): Promise<DemoSetup | undefined> {
  if (runtime.config.env !== 'sandbox') return undefined;
  const { companies } = runtime.services;
  const keyFile = path.join(runtime.config.dataDir, 'sandbox-key.txt');
  const demo = await companies.findByDocument(DEMO.company.document);
  if (demo) {
    const key = fs.existsSync(keyFile) ? fs.readFileSync(keyFile, 'utf8').trim() : undefined;
    const dashboard = await ensureDemoAdmin(runtime, demo.id);
    return { companyId: demo.id, companyName: demo.name, key, accounts: DEMO.accounts, created: false, ...(dashboard ? { dashboard } : {}) };
  }
  if (await companies.any()) return undefined; // an operator set this deployment up; no demo
  const company = settled(await companies.createCompany(DEMO.company.name, DEMO.company.document));
  for (const account of DEMO.accounts) {
    settled(await companies.createAccount(account.document, account.name));
    settled(await companies.approveAccount(account.document));
  }
  const issued = settled(await companies.issueKey(company.id));
  fs.mkdirSync(runtime.config.dataDir, { recursive: true });
  fs.writeFileSync(keyFile, `${issued.key}\n`, { mode: 0o600 });
  const dashboard = await ensureDemoAdmin(runtime, company.id);
  return { companyId: company.id, companyName: company.name, key: issued.key, accounts: DEMO.accounts, created: true, ...(dashboard ? { dashboard } : {}) };
}

/** The demo's fixed inputs are valid, so a refusal here is a broken deployment: start fails loudly. */
function settled<T>(outcome: Outcome<T>): T {
  if (isDomainError(outcome)) throw new Error(`creating the sandbox demo failed: ${outcome.message}`);
  return outcome;
}

export function describeDemo(demo: DemoSetup, apiUrl: string): string {
  return [
    '',
    `  Sandbox ready at ${apiUrl}  (API reference: ${apiUrl}/docs)`,
    `  Demo company: ${demo.companyName} (${demo.companyId})`,
    `  Approved recipient accounts: ${demo.accounts.map((a) => `${a.name} ${a.document}`).join(', ')}`,
    demo.key ? `  Sandbox API key: ${demo.key}` : `  Sandbox API key: issue one with \`${SVC} key issue --company ${demo.companyId}\``,
    demo.dashboard
      ? `  Dashboard: ${apiUrl}/dashboard  (sign in as ${demo.dashboard.email}, password: ${demo.dashboard.password})`
      : `  Dashboard: ${apiUrl}/dashboard  (invite yourself with \`${SVC} user invite --company ${demo.companyId} --email <e-mail> --role admin\`)`,
    '',
  ].join('\n');
}
