/**
 * Error messages in English and in Portuguese. The catalog writes each
 * message once with both languages side by side (a language missing does
 * not compile): here, each entry's Portuguese is not its English left as
 * it was, no text in every language is written outside the catalog, and
 * Accept-Language is negotiated with q-values. Over HTTP, real requests of
 * every kind (auth, routing, framing, schema keywords, the services' own
 * rules, the vault, its refusals read back by the API) answer in Portuguese
 * with `code` and `field` unchanged, Content-Language and Vary. An
 * idempotent replay sends the stored bytes, in the first request's language.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import type { ErrorBody } from '../../src/lib/domain-error.js';
import { negotiateLanguage } from '../../src/lib/i18n/language.js';
import { httpVaultClient } from '../../src/modules/vault/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assertErrorBody } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { catalogTexts, textsWrittenOutside } from '../helpers/error-texts.js';
import { BUYER, cardIntent, pixIntent } from '../helpers/fixtures.js';
import { REPO_ROOT } from '../helpers/server.js';

/** English words a Portuguese detail never holds (field names are not details' texts). */
const ENGLISH_WORDS = /\b(the|must|is|not|request|invalid|payment|required|only|with|and|of)\b/i;

describe('the catalog of error texts', () => {
  test("every entry's Portuguese differs from its English, and neither is empty", () => {
    const texts = catalogTexts();
    assert.ok(texts.length > 150, `the catalog has ${texts.length} entries`);
    for (const { id, text } of texts) {
      assert.ok(text.en.length > 0 && text['pt-BR'].length > 0, id);
      assert.notEqual(text['pt-BR'], text.en, `${id} is left in English`);
    }
  });

  test('no text in every language is written outside src/lib/i18n: errors are made from the catalog', () => {
    const src = path.join(REPO_ROOT, 'src');
    const outside = textsWrittenOutside(src, path.join(src, 'lib', 'i18n')).map((p) => `${path.relative(REPO_ROOT, p.file)}:${p.line}`);
    assert.deepEqual(outside, []);
  });

  test('Accept-Language: highest q wins, q=0 refuses, English by default', () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'en'],
      ['', 'en'],
      ['pt-BR', 'pt-BR'],
      ['pt', 'pt-BR'],
      ['PT-br', 'pt-BR'],
      ['pt-PT,pt;q=0.9', 'pt-BR'],
      ['en-US,en;q=0.9,pt-BR;q=0.8', 'en'],
      ['en;q=0.5, pt-BR;q=0.9', 'pt-BR'],
      ['fr-FR, pt-BR;q=0.7, en;q=0.3', 'pt-BR'],
      ['pt-BR;q=0, en', 'en'],
      ['pt-BR;q=0', 'en'],
      ['de, fr', 'en'],
      ['*', 'en'],
      ['pt-BR;q=abc', 'en'],
    ];
    for (const [header, expected] of cases) assert.equal(negotiateLanguage(header), expected, String(header));
  });
});

for (const engine of engines()) {
  describe(`errors in Portuguese over HTTP (${engine})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(() => t.close());

    const PT = { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' };

    /** The same request in English and in Portuguese: same status, code and fields; every text in Portuguese. */
    async function both(opts: { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: unknown; headers?: Record<string, string>; raw?: string }): Promise<ErrorBody> {
      const send = (lang: Record<string, string>) =>
        t.call({
          method: opts.method,
          url: opts.url,
          headers: { ...(opts.payload !== undefined || opts.raw !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers, ...lang },
          ...(opts.raw !== undefined ? { payload: opts.raw } : opts.payload !== undefined ? { payload: JSON.stringify(opts.payload) } : {}),
        });
      const en = await send({});
      const pt = await send(PT);
      assert.ok(en.statusCode >= 400, `${opts.method} ${opts.url}: ${en.statusCode} ${en.body}`);
      assert.equal(pt.statusCode, en.statusCode);
      assert.equal(en.headers['content-language'], 'en');
      assert.equal(pt.headers['content-language'], 'pt-BR');
      assert.match(String(pt.headers.vary), /Accept-Language/);
      const e = en.json<ErrorBody>();
      const p = pt.json<ErrorBody>();
      assertErrorBody(p);
      assert.equal(p.code, e.code);
      assert.deepEqual(p.details?.map((d) => d.field), e.details?.map((d) => d.field));
      assert.notEqual(p.message, e.message);
      for (const [i, d] of (p.details ?? []).entries()) {
        assert.notEqual(d.message, e.details![i]!.message);
        assert.doesNotMatch(d.message, ENGLISH_WORDS, d.message);
      }
      return p;
    }

    test('authentication, routing and framing', async () => {
      assert.equal((await both({ method: 'GET', url: '/v2/transactions', headers: { authorization: '' } })).message, 'Chave de API ausente: envie Authorization: Bearer <API_KEY>');
      assert.equal((await both({ method: 'GET', url: '/v2/transactions', headers: { authorization: 'Bearer svc_test_nope' } })).code, 'UNAUTHORIZED');
      assert.equal((await both({ method: 'GET', url: '/v2/nowhere' })).message, 'Rota inexistente');
      const json = await both({ method: 'POST', url: '/v2/payment-intents', raw: '{"amountCents": 1,' });
      assert.deepEqual(json.details, [{ field: 'body', message: 'não é JSON válido' }]);
      await both({ method: 'GET', url: `/v2/transactions/${'x'.repeat(80)}` });
    });

    test('every schema keyword the routes use', async () => {
      const body = await both({
        method: 'POST',
        url: '/v2/payment-intents',
        payload: {
          amountCents: '100', // type
          paymentMethod: 'CASH', // enum
          referenceId: 'x'.repeat(300), // maxLength
          buyer: { ...BUYER, email: 'not-an-email', nickname: 'M' }, // format, additionalProperties
          installments: 0, // minimum
        },
      });
      assert.match(body.message, /^Requisição inválida: /);
      const byField = Object.fromEntries(body.details!.map((d) => [d.field, d.message]));
      assert.match(byField['paymentMethod']!, /^deve ser um de [A-Z_, ]+$/);
      assert.equal(byField['buyer.nickname'], 'não é um campo conhecido');
      assert.match(byField['referenceId']!, /^deve ter no máximo \d+ caracteres$/);
      assert.match(byField['installments']!, /^deve ser no mínimo 1$/);
      const missing = await both({ method: 'POST', url: '/v2/payment-intents', payload: { paymentMethod: 'PIX' } });
      assert.ok(missing.details!.some((d) => d.message === 'é obrigatório'));
      const pattern = await both({ method: 'GET', url: '/v2/transactions?startingAfter=nope' });
      assert.match(pattern.details![0]!.message, /^deve seguir o padrão/);
      await both({ method: 'POST', url: '/v2/payment-intents/pi_x/confirm', headers: { 'idempotency-key': 'x'.repeat(300) } });
    });

    test("the services' own rules", async () => {
      const rules = await both({ method: 'POST', url: '/v2/payment-intents', payload: pixIntent({ buyer: { ...BUYER, document: '11111111112' }, installments: 3 }) });
      assert.ok(rules.details!.some((d) => d.field === 'buyer.document' && d.message === 'não é um CPF ou CNPJ válido (dígitos verificadores)'));
      const notFound = await both({ method: 'GET', url: '/v2/transactions/trx_00000000000000000000000000' });
      assert.equal(notFound.message, 'Transação não encontrada');
      const created = await t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'idempotency-key': 'pt-paid' }, payload: pixIntent({ referenceId: 'pt-paid', confirm: true }) });
      assert.equal(created.statusCode, 201, created.body);
      const intentId = created.json<{ id: string }>().id;
      const again = await both({ method: 'POST', url: `/v2/payment-intents/${intentId}/confirm`, headers: { 'idempotency-key': `pt-again-${Date.now()}` } });
      assert.match(again.message, /^A intenção de pagamento já está /);
      const card = await t.call({ method: 'POST', url: '/v2/payment-intents', payload: cardIntent({ referenceId: 'pt-card' }) });
      const token = await both({ method: 'POST', url: `/v2/payment-intents/${card.json<{ id: string }>().id}/confirm`, headers: { 'idempotency-key': 'pt-card-1' } });
      assert.equal(token.code, 'TOKEN_REQUIRED');
      const webhook = await both({ method: 'POST', url: '/v2/webhooks', payload: { url: 'http://example.com/hook', events: ['transaction.paid'] } });
      assert.equal(webhook.details![0]!.message, 'o esquema deve ser https');
    });

    test("the vault's errors", async () => {
      const res = await t.vaultApp.inject({ method: 'POST', url: '/tokenize', headers: { 'content-type': 'application/json', ...PT }, payload: JSON.stringify({ ticket: 'nope', keyId: 'k', encryptedCard: 'x' }) });
      assert.equal(res.headers['content-language'], 'pt-BR');
      const body = res.json<ErrorBody>();
      assert.equal(body.code, 'VALIDATION_ERROR');
      assert.equal(body.message, 'Valor inválido para ticket: não é um ticket válido');
      assert.deepEqual(body.details, [{ field: 'ticket', message: 'não é um ticket válido' }]);
    });

    test("the vault's refusal, read back by the API over HTTP, renders in either language", async () => {
      const origin = await t.vaultApp.listen({ port: 0, host: '127.0.0.1' });
      const client = httpVaultClient(origin, t.deps.internalKey);
      const answer = await client.authorize({ token: 'vtk_unknown', intentId: 'pi_x', companyId: t.companyId, amountCents: 100, installments: 1, deadline: t.clock.now().getTime() + 60_000 });
      assert.ok(answer.kind === 'refused', JSON.stringify(answer));
      assert.deepEqual(answer.error.toBody('en'), {
        code: 'VALIDATION_ERROR',
        message: 'Invalid value for token: is not a card token of this payment intent',
        details: [{ field: 'token', message: 'is not a card token of this payment intent' }],
      });
      assert.deepEqual(answer.error.toBody('pt-BR'), {
        code: 'VALIDATION_ERROR',
        message: 'Valor inválido para token: não é um token de cartão desta intenção de pagamento',
        details: [{ field: 'token', message: 'não é um token de cartão desta intenção de pagamento' }],
      });
    });

    test('a refusal from a vault that answers in one language only is still a refusal, worded in either language', async () => {
      // An older vault, say, mid-deployment: its English is not parsed, the code is kept.
      const older = http.createServer((_request, response) => {
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'VALIDATION_ERROR', message: 'Invalid value for token: is odd', details: [{ field: 'token', message: 'is odd' }] }));
      });
      await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = older.address() as { port: number };
        const answer = await httpVaultClient(`http://127.0.0.1:${port}`, t.deps.internalKey).authorize({ token: 'vtk_x', intentId: 'pi_x', companyId: t.companyId, amountCents: 100, installments: 1, deadline: Date.now() + 5_000 });
        assert.ok(answer.kind === 'refused', JSON.stringify(answer));
        assert.deepEqual(answer.error.toBody('en'), { code: 'VALIDATION_ERROR', message: 'Refused by the vault' });
        assert.deepEqual(answer.error.toBody('pt-BR'), { code: 'VALIDATION_ERROR', message: 'Recusado pelo cofre' });
      } finally {
        older.close();
      }
    });

    test('a stored error is replayed byte for byte in the language of its first request', async () => {
      const create = (lang: Record<string, string>) =>
        t.call({ method: 'POST', url: '/v2/payment-intents', headers: { 'idempotency-key': 'pt-502', ...lang }, payload: pixIntent({ referenceId: 'pt-502', amountCents: 50_200, confirm: true }) });
      const first = await create(PT);
      assert.equal(first.statusCode, 502, first.body);
      assert.match(first.json<ErrorBody>().message, /^A adquirente não respondeu/);
      const replay = await create({ 'accept-language': 'en' });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, first.body);
    });
  });
}
