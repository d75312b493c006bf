/**
 * Issue 35's keys and team in Chromium against the real service, at 1280 and
 * 390 px with axe-core: on Equipe the invite form starts at Leitura, says the
 * service sends no e-mail and reads Gerar convite; pending invitations are
 * listed with their expiry and revoked (the address then fails); a new person
 * who ticks "Já tenho acesso" is asked for a name once accepting says so; a developer
 * is offered only the scopes the role may grant (the sentence says why), the
 * server refuses more (403 naming scopes), and Criada por names them; their
 * removal lists their key and webhook and revokes them, and says so.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { activate, asThePage, assertAccessible, assertNoSidewaysScroll, MEMBER_PASSWORD, newPage, signIn, VIEWPORTS } from '../helpers/dashboard-browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

const NO_EMAIL = 'O serviço não envia e-mail: ao gerar o convite, o endereço aparece aqui para você copiar e enviar à pessoa.';
const SCOPE_CAP =
  'Uma chave pode no máximo o que o papel de quem a cria pode fazer no painel: um desenvolvedor cria cobranças e lê, mas não reembolsa nem vê recebíveis; só um administrador concede todos os escopos.';

describe('dashboard keys and team against the service', () => {
  let server: TestServer;
  let browser: Browser;
  let adminPassword: string;

  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '10000', DASHBOARD_SIGNIN_PER_IP_PER_MINUTE: '1000', WEBHOOK_ALLOW_LOOPBACK: 'true', DASHBOARD_TEST_PASSWORD_HASHES: 'true' } });
    browser = await launchChromium();
    adminPassword = fs.readFileSync(path.join(server.dataDir, 'dashboard-password.txt'), 'utf8').trim();
  });

  after(async () => {
    await browser?.close();
    if (server) assert.deepEqual(await server.stop(), { code: 0, signal: null });
  });

  /** Invites from the open Equipe page; answers the address the dialog shows. */
  async function invite(page: Page, email: string, role?: string): Promise<string> {
    await page.getByRole('button', { name: 'Convidar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convidar para a equipe' });
    await dialog.getByText(NO_EMAIL).waitFor();
    assert.equal(await dialog.getByLabel('Papel').inputValue(), 'viewer', 'the role starts at Leitura');
    await dialog.getByLabel('E-mail').fill(email);
    if (role) await dialog.getByLabel('Papel').selectOption({ label: role });
    await dialog.getByRole('button', { name: 'Gerar convite' }).click();
    const url = await dialog.getByLabel('Endereço do convite').inputValue();
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    return url;
  }

  for (const shape of VIEWPORTS) {
    test(`${shape.name}: pending invitations revoked; a developer's key capped and named; their removal revokes what they made`, async () => {
      const admin = await newPage(browser, shape);
      const check = async (page: Page, what: string) => {
        await assertAccessible(page, `${shape.name} ${what}`);
        await assertNoSidewaysScroll(page, `${shape.name} ${what}`);
      };
      await signIn(admin.page, server.url, 'demo@loja.example', adminPassword);
      await admin.page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
      await admin.page.goto(`${server.url}/dashboard/team`);
      await admin.page.getByRole('cell', { name: 'demo@loja.example' }).waitFor();

      // Two invitations: one revoked from the pending list, whose address then fails.
      const devEmail = `dev-${shape.name}@loja.example`;
      const goneEmail = `desiste-${shape.name}@loja.example`;
      const devUrl = await invite(admin.page, devEmail, 'Desenvolvimento');
      const goneUrl = await invite(admin.page, goneEmail);
      const pending = admin.page.getByRole('region', { name: 'Convites pendentes' });
      await pending.getByRole('cell', { name: goneEmail, exact: true }).waitFor();
      assert.equal(await pending.getByRole('row', { name: new RegExp(goneEmail) }).getByRole('cell', { name: 'Leitura', exact: true }).count(), 1);
      await check(admin.page, 'team with pending invitations');
      await pending.getByRole('button', { name: `Revogar ${goneEmail}` }).click();
      const confirm = admin.page.getByRole('dialog', { name: `Revogar o convite de ${goneEmail}?` });
      await confirm.getByRole('button', { name: 'Revogar convite' }).click();
      await admin.page.getByText('Convite revogado.').waitFor();
      await pending.getByRole('cell', { name: goneEmail, exact: true }).waitFor({ state: 'detached' });
      const gone = await newPage(browser, shape);
      const goneAddress = new URL(goneUrl);
      await gone.page.goto(server.url + goneAddress.pathname + goneAddress.hash);
      await gone.page.getByText('Este convite não existe, já foi usado ou expirou. Peça um novo.').waitFor();
      await gone.page.context().close();

      // Nothing on the invitation page says whether the e-mail has a user: a new person who ticks
      // "Já tenho acesso" is asked for the name once accepting says so, and then activates.
      const newcomerUrl = new URL(await invite(admin.page, `engano-${shape.name}@loja.example`));
      const newcomer = await newPage(browser, shape);
      await newcomer.page.goto(server.url + newcomerUrl.pathname + newcomerUrl.hash);
      await newcomer.page.getByLabel('Já tenho acesso ao painel com este e-mail').check();
      assert.equal(await newcomer.page.getByLabel('Nome').count(), 0);
      await newcomer.page.getByLabel('Senha', { exact: true }).fill(MEMBER_PASSWORD);
      await newcomer.page.getByRole('button', { name: 'Ativar acesso' }).click();
      await newcomer.page.getByText('Este e-mail ainda não tem acesso ao painel: informe seu nome e confirme a senha.').waitFor();
      await check(newcomer.page, 'invitation asking for the name');
      await newcomer.page.getByLabel('Nome').fill(`Engano ${shape.name}`);
      await newcomer.page.getByLabel('Senha', { exact: true }).fill(MEMBER_PASSWORD);
      await newcomer.page.getByLabel('Confirme a senha').fill(MEMBER_PASSWORD);
      await newcomer.page.getByRole('button', { name: 'Ativar acesso' }).click();
      await newcomer.page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
      await newcomer.page.context().close();

      // The developer: offered only what the role may grant, told why; the server refuses more.
      const dev = await newPage(browser, shape);
      await activate(dev.page, server.url, devUrl, `Pessoa dev ${shape.name}`);
      await dev.page.goto(`${server.url}/dashboard/developers`);
      await dev.page.getByRole('button', { name: 'Nova chave' }).click();
      const keyDialog = dev.page.getByRole('dialog', { name: 'Nova chave de API' });
      await keyDialog.getByText(SCOPE_CAP).waitFor();
      const offered = keyDialog.getByRole('group', { name: 'Escopos que o seu papel pode conceder' }).getByRole('checkbox');
      assert.equal(await offered.count(), 4);
      for (const scope of ['refunds:write', 'receivables:read', 'payments:write']) assert.equal(await keyDialog.getByText(scope, { exact: true }).count(), 0, scope);
      await check(dev.page, 'new key dialog');
      await keyDialog.getByLabel('Nome').fill(`Chave do dev ${shape.name}`);
      await keyDialog.getByRole('button', { name: 'Criar chave' }).click();
      await dev.page.getByRole('dialog', { name: 'Chave criada' }).getByRole('button', { name: 'Fechar' }).click();
      const row = dev.page.getByRole('row', { name: new RegExp(`Chave do dev ${shape.name}`) });
      await row.getByRole('cell', { name: `Pessoa dev ${shape.name}`, exact: true }).waitFor();
      assert.equal(await row.getByRole('cell', { name: 'webhooks:read, webhooks:write, charges:read, charges:write' }).count(), 1);
      const above = await asThePage(dev.page, server.url, 'POST', '/api-keys', { name: 'Tudo', scopes: ['payments:write'] });
      assert.equal(above.status, 403);
      assert.equal(above.json.code, 'FORBIDDEN');
      assert.equal(above.json.details[0].field, 'scopes');
      await dev.page.getByText('Escopos que cada papel pode conceder').click();
      await check(dev.page, 'developers with the scopes by role');
      const hook = await asThePage(dev.page, server.url, 'POST', '/webhooks', { url: `https://127.0.0.1:8443/${shape.name}?token=s3cr3t`, events: ['transaction.paid'] });
      assert.equal(hook.status, 201);

      // The admin removes them: the dialog lists the key and the webhook (no query), revokes both, and says so.
      await admin.page.reload();
      const devRow = admin.page.getByRole('row', { name: new RegExp(devEmail) });
      await devRow.getByRole('button', { name: /Remover/ }).click();
      const remove = admin.page.getByRole('dialog', { name: `Remover Pessoa dev ${shape.name}?` });
      await remove.getByText(`Chave do dev ${shape.name}`).waitFor();
      await remove.getByText(`https://127.0.0.1:8443/${shape.name}`, { exact: true }).waitFor();
      assert.equal(await remove.getByText(/s3cr3t/).count(), 0);
      assert.equal(await remove.getByLabel('Revogar as chaves e webhooks deste membro').isChecked(), true);
      await check(admin.page, 'remove member dialog');
      await remove.getByRole('button', { name: 'Remover da equipe' }).click();
      await admin.page.getByText('Membro removido; 1 chave e 1 webhook revogados.').waitFor();
      const keys = (await asThePage(admin.page, server.url, 'GET', '/api-keys')).json.data as { name: string; revokedAt: string | null }[];
      assert.ok(keys.find((k) => k.name === `Chave do dev ${shape.name}`)?.revokedAt);
      await admin.page.goto(`${server.url}/dashboard/developers`);
      await admin.page.getByRole('row', { name: new RegExp(`Chave do dev ${shape.name}`) }).getByText('Revogada').waitFor();
      await check(admin.page, 'developers after the removal');
      for (const open of [admin, dev]) {
        assert.deepEqual(open.problems, [], 'no script error or CSP violation');
        await open.page.context().close();
      }
    });
  }
});
