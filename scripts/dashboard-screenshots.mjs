#!/usr/bin/env node
// The README's dashboard screenshots (desktop 1280 px and phone 390 px) in
// docs/images/, taken from a real sandbox: starts `svc serve` (compiled dist/:
// run `npm run build` first) on a temporary DATA_DIR with the embedded
// database, makes a few Pix sales through the API with the sandbox key, signs
// in as the demo admin (demo@loja.example, DATA_DIR/dashboard-password.txt)
// in Debian's Chromium, and captures Início, Transações and a sale. Not a
// test: run it by hand when the pages change (`node scripts/dashboard-screenshots.mjs`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs', 'images');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORTS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 860 } } },
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
];
const BUYERS = [
  ['Maria da Silva', '529982247', 15_990],
  ['João Pereira', '111444777', 4_500],
  ['Ana Beatriz Souza', '390533447', 129_900],
  ['Carlos Eduardo Lima', '295379148', 8_990],
  ['Fernanda Oliveira', '862883667', 23_450],
  ['Ricardo Gomes', '714287938', 59_900],
];

/** A CPF: nine digits and their two check digits. */
function cpf(base9) {
  const digits = [...base9].map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

if (!fs.existsSync(path.join(ROOT, 'dist', 'web', 'dashboard', 'dashboard.js'))) {
  console.error('dist/ is missing the dashboard: run npm run build first');
  process.exit(1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dashboard-shots-'));
const port = await freePort();
const api = `http://127.0.0.1:${port}`;
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SVC_ENV: 'sandbox', LOG_LEVEL: 'warn', PUBLIC_API_URL: api, VAULT_PORT: String(await freePort()) };
delete env.DATABASE_URL;
const server = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
let banner = '';
server.stdout.setEncoding('utf8').on('data', (chunk) => (banner += chunk));

try {
  const keyFile = path.join(dataDir, 'sandbox-key.txt');
  const passwordFile = path.join(dataDir, 'dashboard-password.txt');
  for (let waited = 0; !(/Sandbox API key: /.test(banner) && fs.existsSync(keyFile)); waited += 200) {
    if (waited > 90_000 || server.exitCode !== null) throw new Error(`svc serve did not start:\n${banner}`);
    await sleep(200);
  }
  if (!fs.existsSync(passwordFile)) throw new Error('no DATA_DIR/dashboard-password.txt: the users module has not landed');
  const key = fs.readFileSync(keyFile, 'utf8').trim();
  const password = fs.readFileSync(passwordFile, 'utf8').trim();
  const call = async (method, pathname, body, headers = {}) => {
    const res = await fetch(api + pathname, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  let sale;
  for (const [i, [name, document, amountCents]] of BUYERS.entries()) {
    const intent = await call('POST', '/v2/payment-intents', { amountCents, paymentMethod: 'PIX', referenceId: `pedido-${1001 + i}`, buyer: { name, document: cpf(document), email: `cliente${i}@example.com` } });
    const trx = await call('POST', `/v2/payment-intents/${intent.id}/confirm`, undefined, { 'idempotency-key': `${intent.id}-confirm` });
    // The last one stays pending, as a real list has.
    if (i < BUYERS.length - 1) await call('POST', `/v2/sandbox/transactions/${trx.id}/pay`);
    sale ??= trx.id;
  }

  fs.mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    for (const shape of VIEWPORTS) {
      const context = await browser.newContext({ ...shape.options, locale: 'pt-BR' });
      const page = await context.newPage();
      await page.goto(`${api}/dashboard/login`);
      await page.getByLabel('E-mail').fill('demo@loja.example');
      await page.getByLabel('Senha').fill(password);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.getByRole('heading', { name: 'Início', level: 1 }).waitFor();
      await page.locator('.chart svg').waitFor();
      await page.screenshot({ path: path.join(OUT, `dashboard-${shape.name}-home.png`), fullPage: shape.name === 'desktop' });
      await page.goto(`${api}/dashboard/transactions`);
      await page.getByRole('cell', { name: 'Maria da Silva' }).waitFor();
      await page.screenshot({ path: path.join(OUT, `dashboard-${shape.name}-transactions.png`) });
      await page.goto(`${api}/dashboard/transactions/${sale}`);
      await page.getByRole('heading', { name: /^Venda / }).waitFor();
      await page.locator('.timeline').waitFor();
      await page.screenshot({ path: path.join(OUT, `dashboard-${shape.name}-sale.png`) });
      await page.goto(`${api}/dashboard/developers`);
      await page.getByRole('heading', { name: 'Desenvolvedores', level: 1 }).waitFor();
      await page.getByRole('cell', { name: 'transaction.paid' }).first().waitFor();
      await page.screenshot({ path: path.join(OUT, `dashboard-${shape.name}-developers.png`), fullPage: true });
      await page.goto(`${api}/dashboard/team`);
      await page.getByRole('cell', { name: 'demo@loja.example' }).waitFor();
      await page.screenshot({ path: path.join(OUT, `dashboard-${shape.name}-team.png`) });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  console.log(`screenshots in ${path.relative(ROOT, OUT)}/`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once('exit', resolve)));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
