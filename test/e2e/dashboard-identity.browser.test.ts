/**
 * The dashboard's people in Chromium against the real service (`svc serve`,
 * compiled dist/): the demo admin signs in with DATA_DIR's password and
 * invites a member of each role on the Equipe page, who activates the
 * invitation (Nome, Senha, Confirme a senha, Ativar acesso); each role's
 * limits on the team are checked against the server with the member's own
 * session; a stale page after a role change is refused, nothing done; Sair
 * ends the session on the server; the lockout is said on the sign-in page;
 * two-step verification is turned on and used with codes computed here (RFC
 * 6238). axe-core checks the pages with real data.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { activate, asThePage, assertAccessible, invite, MEMBER_PASSWORD, newPage, signIn, totp, VIEWPORTS } from '../helpers/dashboard-browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

const DESKTOP = VIEWPORTS[0];

describe('dashboard people against the service', () => {
  let server: TestServer;
  let browser: Browser;
  let adminPassword: string;

  before(async () => {
    // Passwords hashed at the test kit's cost: the file hashes some twenty (activations, sign-ins, the lockout's ten failures).
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '10000', DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '1000', DASHBOARD_TEST_PASSWORD_HASHES: 'true' } });
    browser = await launchChromium();
    adminPassword = fs.readFileSync(path.join(server.dataDir, 'dashboard-password.txt'), 'utf8').trim();
  });

  after(async () => {
    await browser?.close();
    if (server) assert.deepEqual(await server.stop(), { code: 0, signal: null });
  });

  test('invited on the Equipe page and activated; each role refused by the server; a stale page after a role change; Sair', async () => {
    const admin = await newPage(browser, DESKTOP);
    await signIn(admin.page, server.url, 'demo@loja.example', adminPassword);
    await admin.page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
    await admin.page.getByRole('link', { name: 'Equipe' }).click();
    await admin.page.getByRole('cell', { name: 'demo@loja.example' }).waitFor();
    const changes: [string, string, unknown][] = [
      ['POST', '/team/invitations', { email: 'intruso@loja.example', role: 'admin' }],
      ['PUT', '/team/settings', { requireTotp: true }],
    ];
    const members: Record<string, Page> = {};
    for (const role of ['Administrador', 'Financeiro', 'Desenvolvimento', 'Leitura']) {
      const url = await invite(admin.page, `${role.toLowerCase()}@loja.example`, role);
      assert.match(url, /\/dashboard\/invitation#[A-Za-z0-9_-]{20,}$/);
      const member = await newPage(browser, DESKTOP);
      await activate(member.page, server.url, url, `Pessoa ${role}`);
      members[role] = member.page;
      // Only admins see Equipe; the server refuses the team's changes to every other role with the member's own session.
      assert.equal(await member.page.getByRole('link', { name: 'Equipe' }).count(), role === 'Administrador' ? 1 : 0, role);
      if (role === 'Administrador') continue;
      for (const [method, pathname, body] of changes) {
        const answer = await asThePage(member.page, server.url, method, pathname, body);
        assert.equal(answer.status, 403, `${role} ${method} ${pathname}: ${JSON.stringify(answer.json)}`);
        assert.equal(answer.json.code, 'FORBIDDEN');
      }
      assert.deepEqual(member.problems, [], role);
    }
    const team = (await asThePage(admin.page, server.url, 'GET', '/team')).json;
    assert.equal(team.requireTotp, false, 'nothing was changed');
    assert.deepEqual(team.members.map((m: Json) => m.email).sort(), ['administrador@loja.example', 'demo@loja.example', 'desenvolvimento@loja.example', 'financeiro@loja.example', 'leitura@loja.example']);
    await admin.page.reload();
    await admin.page.getByRole('cell', { name: 'leitura@loja.example' }).waitFor();
    await assertAccessible(admin.page, 'team with members');

    // A stale page: the second admin has the invitation dialog open when the demo admin makes them read-only.
    const stale = members.Administrador!;
    await stale.getByRole('link', { name: 'Equipe' }).click();
    await stale.getByRole('button', { name: 'Convidar' }).click();
    await admin.page.getByRole('combobox', { name: 'Papel de Pessoa Administrador' }).selectOption({ label: 'Leitura' });
    await admin.page.getByText('Papel alterado.').waitFor();
    const dialog = stale.getByRole('dialog', { name: 'Convidar para a equipe' });
    await dialog.getByLabel('E-mail').fill('tarde@loja.example');
    await dialog.getByRole('button', { name: 'Gerar convite' }).click();
    await dialog.getByRole('alert').getByText(/Seu papel não permite esta ação/).waitFor();
    // The refusal made the page ask who it is: closed, the dialog leaves a page without Convidar.
    await stale.keyboard.press('Escape');
    await stale.getByRole('button', { name: 'Convidar' }).waitFor({ state: 'detached' });
    const after = (await asThePage(admin.page, server.url, 'GET', '/audit?action=member.invited')).json;
    assert.equal(after.data.filter((e: Json) => JSON.stringify(e).includes('tarde@loja.example')).length, 0, 'no invitation was made');

    // Sair: the session ends on the server, and the page goes to sign-in.
    const reader = members.Leitura!;
    await reader.getByRole('button', { name: 'Sair' }).click();
    await reader.waitForURL('**/dashboard/login');
    assert.equal((await reader.request.get(`${server.url}/dashboard/api/session`)).status(), 401);
    await reader.goto(`${server.url}/dashboard/team`);
    await reader.waitForURL('**/dashboard/login');

    // Auditoria: the sign-ins and invitations, filtered by action.
    await admin.page.getByRole('link', { name: 'Auditoria' }).click();
    await admin.page.getByRole('cell', { name: 'Entrou', exact: true }).first().waitFor();
    const filtered = admin.page.waitForResponse((r) => new URL(r.url()).searchParams.get('action') === 'member.invited');
    await admin.page.getByLabel(/^Ação/).selectOption('member.invited');
    const entries = ((await (await filtered).json()) as Json).data as Json[];
    assert.ok(entries.length >= 4 && entries.every((e) => e.action === 'member.invited'), JSON.stringify(entries));
    await admin.page.getByRole('cell', { name: 'Entrou', exact: true }).first().waitFor({ state: 'detached' });
    assert.equal(await admin.page.getByRole('cell', { name: 'Convite gerado', exact: true }).count(), entries.length);
    await assertAccessible(admin.page, 'audit with entries');
    for (const page of [admin.page, ...Object.values(members)]) await page.context().close();
  });

  test('the lockout is said on the sign-in page; two-step verification turned on and used with computed codes, then required of everyone', async () => {
    const { page, problems } = await newPage(browser, DESKTOP);
    const invited = await server.cli('user', 'invite', '--company', server.companyId!, '--email', 'trava@loja.example', '--role', 'viewer', '--json');
    assert.equal(invited.code, 0, invited.stderr);
    await activate(page, server.url, (invited.json as Json).url, 'Pessoa Trava');
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL('**/dashboard/login');
    for (let i = 0; i < 10; i++) {
      await page.getByLabel('E-mail').fill('trava@loja.example');
      await page.getByLabel('Senha').fill(`errada-${i}`);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.getByRole('alert').waitFor();
    }
    // Locked: even the right password is refused, and the page says why.
    await page.getByLabel('Senha').fill(MEMBER_PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('alert').getByText(/está bloqueado/).waitFor();
    await assertAccessible(page, 'sign-in, locked');

    const owner = await server.cli('user', 'invite', '--company', server.companyId!, '--email', 'dupla@loja.example', '--role', 'admin', '--json');
    assert.equal(owner.code, 0, owner.stderr);
    await activate(page, server.url, (owner.json as Json).url, 'Pessoa Dupla');
    await page.getByRole('link', { name: 'Minha conta' }).click();
    // Enrolling takes the password again: a wrong one is refused.
    await page.getByLabel('Senha', { exact: true }).fill('não é a senha');
    await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click();
    await page.getByRole('alert').getByText('Senha incorreta').waitFor();
    await page.getByLabel('Senha', { exact: true }).fill(MEMBER_PASSWORD);
    await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click();
    await page.getByRole('img', { name: 'QR Code da verificação em duas etapas' }).waitFor();
    const secret = String(await page.locator('code.secret').textContent());
    assert.match(secret, /^[A-Z2-7]{16,}=*$/);
    // A wrong code is refused.
    const now = Date.now();
    const wrong = ['000000', '111111'].find((c) => ![-30_000, 0, 30_000].some((d) => totp(secret, now + d) === c))!;
    await page.getByLabel('Código').fill(wrong);
    await page.getByRole('button', { name: 'Ativar', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Código').fill(totp(secret, Date.now()));
    await page.getByRole('button', { name: 'Ativar', exact: true }).click();
    const codes = page.getByRole('list', { name: 'Códigos de recuperação' });
    await codes.waitFor();
    assert.equal(await codes.getByRole('listitem').count(), 10);
    const recovery = String(await codes.getByRole('listitem').nth(0).textContent());
    const another = String(await codes.getByRole('listitem').nth(1).textContent());
    await assertAccessible(page, 'account, recovery codes');

    // The next sign-in asks for Código: the next step's code (the one just used may not be used again), then a recovery code once.
    await page.getByRole('button', { name: 'Sair' }).click();
    await signIn(page, server.url, 'dupla@loja.example', MEMBER_PASSWORD);
    await page.getByLabel('Código').fill(totp(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sair' }).click();
    await signIn(page, server.url, 'dupla@loja.example', MEMBER_PASSWORD);
    await page.getByLabel('Código').fill(recovery);
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sair' }).click();
    await signIn(page, server.url, 'dupla@loja.example', MEMBER_PASSWORD);
    await page.getByLabel('Código').fill(recovery);
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.getByRole('alert').waitFor();
    assert.equal(new URL(page.url()).pathname, '/dashboard/login', 'a recovery code works once');

    // The admin requires two-step verification of everyone: a new member can only set it up.
    await page.getByLabel('Código').fill(another);
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Equipe' }).click();
    await page.getByRole('cell', { name: 'dupla@loja.example' }).waitFor();
    const settled = page.waitForResponse((r) => new URL(r.url()).pathname === '/dashboard/api/team' && r.request().method() === 'GET');
    await page.getByLabel('Exigir verificação em duas etapas de todos').check();
    assert.equal(((await (await settled).json()) as Json).requireTotp, true);
    assert.equal(await page.getByLabel('Exigir verificação em duas etapas de todos').isChecked(), true);
    const newcomer = await server.cli('user', 'invite', '--company', server.companyId!, '--email', 'nova@loja.example', '--role', 'finance', '--json');
    const url = new URL((newcomer.json as Json).url);
    const fresh = await newPage(browser, DESKTOP);
    await fresh.page.goto(server.url + url.pathname + url.hash);
    await fresh.page.getByLabel('Nome').fill('Pessoa Nova');
    await fresh.page.getByLabel('Senha', { exact: true }).fill(MEMBER_PASSWORD);
    await fresh.page.getByLabel('Confirme a senha').fill(MEMBER_PASSWORD);
    await fresh.page.getByRole('button', { name: 'Ativar acesso' }).click();
    await fresh.page.getByText('A empresa exige verificação em duas etapas: ative-a abaixo para continuar.').waitFor();
    await fresh.page.getByRole('heading', { name: 'Minha conta', level: 1 }).waitFor();
    assert.equal((await asThePage(fresh.page, server.url, 'GET', '/transactions')).status, 403, 'nothing else until it is set up');
    await fresh.page.context().close();
    assert.deepEqual(problems.filter((p) => !/status of 40[14]/.test(p)), []);
    await page.context().close();
  });
});
