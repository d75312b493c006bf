/**
 * Minha conta and the sign-in's code step after issue 35, in real Chromium at
 * 1280 and 390 px over a stand-in of the JSON API, in both languages, checked
 * by axe-core: turning two-step verification on asks for the password again
 * (Senha), turning it off for the password and a Código; a password the rule
 * refuses shows the server's message naming the field; an invitation accepted
 * by a user with two-step verification asks for Código; too many wrong codes
 * (429) take the sign-in page back to E-mail and Senha with the lock's message.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { permissionsOf } from '../../src/modules/users/roles.js';
import { launchChromium } from '../helpers/chromium.js';
import { assertAccessible, assertNoSidewaysScroll, newPage, standInApi, VIEWPORTS } from '../helpers/dashboard-browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

const me = (totpEnabled: boolean) => ({
  stage: 'signed-in',
  user: { id: 'usr_1', email: 'ana@loja.example', name: 'Ana Souza', totpEnabled },
  company: { id: 'cmp_1', name: 'Loja Demo Ltda' },
  role: 'viewer',
  permissions: permissionsOf('viewer'),
  companies: [{ id: 'cmp_1', name: 'Loja Demo Ltda', role: 'viewer' }],
  environment: 'sandbox',
  csrfToken: 'csrf-token-1',
  totpSetupRequired: false,
});

const QR = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('dashboard account and code step', () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_SECOND: '10000' } });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    if (server) assert.deepEqual(await server.stop(), { code: 0, signal: null });
  });

  for (const shape of VIEWPORTS) {
    test(`at ${shape.name} width: two-step on with the password, off with the password and a code; the password rule's message`, async () => {
      const { page, problems } = await newPage(browser, shape);
      let totpEnabled = false;
      const calls = await standInApi(page, ({ method, path, body }) => {
        const key = `${method} ${path}`;
        if (key === 'GET /session') return { body: me(totpEnabled) };
        if (key === 'GET /home') return { body: { today: { count: 0, amount: 0 }, last30Days: { count: 0, amount: 0 }, pending: { count: 0, amount: 0 }, refunded: { count: 0, amount: 0 }, chargedBack: { count: 0, amount: 0 }, receivables: { toReceive: 0, paid: 0, receivedThisMonth: 0, next: [] }, fees: { thisMonth: 0 }, daily: [] } };
        if (key === 'POST /account/totp') return { body: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x', qrCode: QR } };
        if (key === 'POST /account/totp/confirm') {
          totpEnabled = true;
          return { body: { recoveryCodes: Array.from({ length: 10 }, (_, i) => `rc-${i}-abcd`) } };
        }
        if (key === 'DELETE /account/totp') {
          totpEnabled = false;
          return { status: 204 };
        }
        if (key === 'POST /account/password' && (body as { newPassword: string }).newPassword === 'aaaaaaaaaaaa') {
          const problem = 'é repetitiva demais (um caractere ou um trecho curto repetido, ou uma sequência como abcdef ou 123456): escolha uma frase sua';
          return { status: 400, body: { code: 'VALIDATION_ERROR', message: `Valor inválido: newPassword ${problem}`, details: [{ field: 'newPassword', message: problem }] } };
        }
        return undefined;
      });
      const check = async (what: string) => {
        await assertAccessible(page, `${shape.name} ${what}`);
        await assertNoSidewaysScroll(page, `${shape.name} ${what}`);
      };

      await page.goto(`${server.url}/dashboard/account`);
      await page.getByRole('heading', { name: 'Minha conta', level: 1 }).waitFor();
      await page.getByText('Confirme com a sua senha para começar. Suas outras sessões serão encerradas ao ativar.').waitFor();
      await check('account, two-step off');
      await page.getByLabel('Senha', { exact: true }).fill('uma senha longa o bastante');
      await page.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click();
      await page.getByRole('img', { name: 'QR Code da verificação em duas etapas' }).waitFor();
      assert.deepEqual(calls.find((c) => c.method === 'POST' && c.path === '/account/totp')?.body, { password: 'uma senha longa o bastante' });
      await page.getByLabel('Código').fill('123456');
      await page.getByRole('button', { name: 'Ativar', exact: true }).click();
      await page.getByRole('list', { name: 'Códigos de recuperação' }).waitFor();

      // Turning it off: Senha and Código, both sent.
      await page.reload();
      await page.getByText('Para desativar, digite a sua senha e o código do aplicativo (ou um código de recuperação). Suas outras sessões serão encerradas.').waitFor();
      await check('account, two-step on');
      await page.getByLabel('Senha', { exact: true }).fill('uma senha longa o bastante');
      await page.getByLabel('Código').fill(' 654321 ');
      await page.getByRole('button', { name: 'Desativar verificação em duas etapas' }).click();
      await page.getByText('Verificação em duas etapas desativada.').waitFor();
      assert.deepEqual(calls.find((c) => c.method === 'DELETE' && c.path === '/account/totp')?.body, { password: 'uma senha longa o bastante', code: '654321' });

      // A new password the rule refuses: the server's message, naming the field.
      await page.getByLabel('Senha atual').fill('uma senha longa o bastante');
      await page.getByLabel('Nova senha').fill('aaaaaaaaaaaa');
      await page.getByLabel('Confirme a senha').fill('aaaaaaaaaaaa');
      await page.getByRole('button', { name: 'Alterar senha' }).click();
      await page.getByRole('alert').getByText(/newPassword: é repetitiva demais/).waitFor();
      await check('account, password refused');

      // In English.
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByText('Confirm with your password to start. Your other sessions will end when it is turned on.').waitFor();
      await check('account in English');
      assert.deepEqual(problems.filter((p) => !/status of 400/.test(p)), [], 'no script error or CSP violation');
      await page.context().close();
    });

    test(`at ${shape.name} width: an invitation accepted with two-step verification on asks for Código before signing in`, async () => {
      const { page, problems } = await newPage(browser, shape);
      let joined = false;
      const calls = await standInApi(page, ({ method, path }) => {
        const key = `${method} ${path}`;
        if (key === 'POST /invitations/lookup') return { body: { email: 'ana@loja.example', companyName: 'Loja Demo Ltda', role: 'viewer' } };
        if (key === 'POST /invitations/accept') return { body: { stage: 'totp' } };
        if (key === 'POST /session/totp') {
          joined = true;
          return { body: me(true) };
        }
        if (key === 'GET /session') return joined ? { body: me(true) } : { status: 401, body: { code: 'UNAUTHORIZED', message: 'Entre para continuar' } };
        if (key === 'GET /home') return { body: { today: { count: 0, amount: 0 }, last30Days: { count: 0, amount: 0 }, pending: { count: 0, amount: 0 }, refunded: { count: 0, amount: 0 }, chargedBack: { count: 0, amount: 0 }, receivables: { toReceive: 0, paid: 0, receivedThisMonth: 0, next: [] }, fees: { thisMonth: 0 }, daily: [] } };
        return undefined;
      });
      await page.goto(`${server.url}/dashboard/invitation#tok_ok`);
      await page.getByLabel('Já tenho acesso ao painel com este e-mail').check();
      await page.getByLabel('Senha', { exact: true }).fill('uma senha longa o bastante');
      await page.getByRole('button', { name: 'Ativar acesso' }).click();
      await page.getByLabel('Código').fill('123456');
      await assertAccessible(page, `${shape.name} invitation code step`);
      await assertNoSidewaysScroll(page, `${shape.name} invitation code step`);
      await page.getByRole('button', { name: 'Verificar' }).click();
      await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
      assert.deepEqual(calls.find((c) => c.method === 'POST' && c.path === '/session/totp')?.body, { code: '123456' });
      assert.deepEqual(problems.filter((p) => !/status of 401/.test(p)), []);
      await page.context().close();
    });

    test(`at ${shape.name} width: too many wrong codes take the sign-in back to E-mail and Senha with the lock's message`, async () => {
      const { page, problems } = await newPage(browser, shape);
      let codes = 0;
      await standInApi(page, ({ method, path }) => {
        const key = `${method} ${path}`;
        if (key === 'GET /session') return { status: 401, body: { code: 'UNAUTHORIZED', message: 'Entre para continuar' } };
        if (key === 'POST /session') return { body: { stage: 'totp' } };
        if (key === 'POST /session/totp') {
          codes++;
          return codes < 5
            ? { status: 401, body: { code: 'UNAUTHORIZED', message: 'Código incorreto' } }
            : { status: 429, body: { code: 'RATE_LIMITED', message: 'Tentativas de entrada sem sucesso demais com este e-mail: ele está bloqueado; tente novamente em 15 min' } };
        }
        return undefined;
      });
      await page.goto(`${server.url}/dashboard/login`);
      await page.getByLabel('E-mail').fill('ana@loja.example');
      await page.getByLabel('Senha').fill('uma senha longa o bastante');
      await page.getByRole('button', { name: 'Entrar' }).click();
      for (let i = 0; i < 4; i++) {
        await page.getByLabel('Código').fill(`00000${i}`);
        await page.getByRole('button', { name: 'Verificar' }).click();
        await page.getByRole('alert').getByText('Código incorreto').waitFor();
      }
      await page.getByLabel('Código').fill('000004');
      await page.getByRole('button', { name: 'Verificar' }).click();
      await page.getByRole('alert').getByText(/está bloqueado; tente novamente em 15 min/).waitFor();
      await page.getByLabel('E-mail').waitFor();
      assert.equal(await page.getByLabel('Código').count(), 0, 'back to E-mail and Senha');
      await assertAccessible(page, `${shape.name} sign-in locked after codes`);
      await assertNoSidewaysScroll(page, `${shape.name} sign-in locked after codes`);
      assert.deepEqual(problems.filter((p) => !/status of 4(01|29)/.test(p)), []);
      await page.context().close();
    });
  }
});
