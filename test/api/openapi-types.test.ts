/**
 * The OpenAPI documents generate usable client types: openapi-typescript, as
 * the SDK's generator runs it (packages/sdk/scripts/openapi-types.mjs), turns
 * the live /openapi.json of the API and of the vault into .d.ts files, and a
 * small client program written against them (named schemas, operations by
 * operationId, the required Idempotency-Key, an optional body, error codes,
 * webhooks) must compile with the TypeScript compiler. A missing operationId
 * or schema name, a key marked optional, or an untyped enum breaks it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/db.js';
import { typesFromDocument } from '../helpers/sdk.js';

/** Every line marked @ts-expect-error must be an error: an unused one fails the compile too. */
const CLIENT = `
import type { components, operations, webhooks } from './api.js';
import type { operations as vault } from './vault.js';

type PaymentIntent = components['schemas']['PaymentIntent'];
type Transaction = components['schemas']['Transaction'];
type Receivable = components['schemas']['Receivable'];
type ApiError = components['schemas']['Error'];

export const body: operations['createPaymentIntent']['requestBody']['content']['application/json'] = {
  amountCents: 15990,
  paymentMethod: 'PIX',
  confirm: true,
  referenceId: 'order-1',
  buyer: { name: 'Maria da Silva', document: '52998224725' },
};
export const created = (intent: PaymentIntent): Transaction | undefined => intent.transaction;
export const status: PaymentIntent['status'] = 'REQUIRES_CONFIRMATION';
// @ts-expect-error not an intent status
export const badStatus: PaymentIntent['status'] = 'PAID_TWICE';

export const confirmHeaders: operations['confirmPaymentIntent']['parameters']['header'] = { 'Idempotency-Key': 'order-1-confirm' };
// @ts-expect-error Idempotency-Key is required on confirm
export const noKey: operations['confirmPaymentIntent']['parameters']['header'] = {};
export const createHeaders: operations['createPaymentIntent']['parameters']['header'] = {};
export const noBody: operations['confirmPaymentIntent']['requestBody'] = undefined;

type Confirmed = operations['confirmPaymentIntent']['responses'][201]['content']['application/json'];
export const net = (t: Confirmed): number => t.amountCents - t.feeCents;
export const conflict: operations['confirmPaymentIntent']['responses'][409]['content']['application/json']['code'] = 'INTENT_EXPIRED';
export const anyCode: ApiError['code'] = 'IDEMPOTENCY_KEY_REUSED';
// @ts-expect-error not an error code
export const badCode: ApiError['code'] = 'OOPS';

type Page = operations['listReceivables']['responses'][200]['content']['application/json'];
export const firstAmount = (page: Page): number | undefined => page.data[0]?.amountCents;
export const receivableId = (r: Receivable): string => r.id;
export const refundOf = (r: operations['getRefund']['responses'][200]['content']['application/json']): string => r.transactionId;

type Paid = webhooks['transaction.paid']['post']['requestBody']['content']['application/json'];
export const paidId = (event: Paid): string => event.data.transaction.id;

type Token = vault['tokenizeCard']['responses'][201]['content']['application/json'];
export const tokenOf = (t: Token): string => t.token;
`;

function compile(dir: string): string[] {
  const program = ts.createProgram([path.join(dir, 'client.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    skipLibCheck: false,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('types generated from the OpenAPI documents', () => {
  let t: TestApp;
  let dir: string;

  before(async () => {
    t = await startTestApp(engines()[0]!);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-openapi-types-'));
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  test('a client program using named schemas and operations by operationId compiles', async () => {
    for (const [name, app] of [['api', t.app], ['vault', t.vaultApp]] as const) {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      assert.equal(res.statusCode, 200, `${name} /openapi.json`);
      fs.writeFileSync(path.join(dir, `${name}.d.ts`), await typesFromDocument(res.json()));
    }
    const generated = fs.readFileSync(path.join(dir, 'api.d.ts'), 'utf8');
    assert.match(generated, /createPaymentIntent: \{/, 'operations are named by operationId');
    assert.match(generated, /PaymentIntent: \{/, 'schemas are named');
    fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    assert.deepEqual(compile(dir), []);
  });

  test('the compile check is not vacuous: a program using an unknown operation fails', () => {
    fs.writeFileSync(path.join(dir, 'client.ts'), `import type { operations } from './api.js';\nexport type X = operations['chargeTwice'];\n`);
    assert.ok(compile(dir).some((message) => message.includes('chargeTwice')));
  });
});
