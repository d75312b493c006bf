/**
 * Error messages in Portuguese: every English text the source can put in an
 * error body has its pt-BR entry (found in the source, so a new text without
 * one fails here), Accept-Language is negotiated with q-values, and real
 * requests of every kind (auth, routing, framing, schema keywords, the
 * services' own rules, the vault) answer in Portuguese with `code` and
 * `field` unchanged, Content-Language and Vary. An idempotent replay sends the
 * stored bytes, in the first request's language.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { negotiateLanguage } from '../../src/lib/i18n/language.js';
import { localizeBody, toPortuguese } from '../../src/lib/i18n/localize.js';
import { PT_BR } from '../../src/lib/i18n/messages-pt-br.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { ErrorBody } from '../../src/lib/domain-error.js';
import { assertErrorBody } from '../helpers/assert.js';
import { engines } from '../helpers/db.js';
import { errorTextsIn } from '../helpers/error-texts.js';
import { BUYER, cardIntent, pixIntent } from '../helpers/fixtures.js';
import { REPO_ROOT } from '../helpers/server.js';

// The scan reads the TypeScript sources in the repository, not .test-build's JavaScript.
const SRC = path.join(REPO_ROOT, 'src');
/** Texts the scan finds that never reach a client: reasons logged or turned into a state, not into an error body. */
const NOT_SHOWN = new Set([
  'invalid', // tickets.ts: a ticket check's reason, answered with "is not a valid ticket"
  'expired',
  'CANCELED', // a status name
  'the deadline passed before the authorization started', // authorize.ts: logged reasons of a card not charged
  'an earlier authorization of this intent was interrupted; its outcome is unknown',
  'approved after the deadline and reversed',
  'a late approval could not be reversed yet: {}',
  'vault unreachable: {}', // vault/client.ts: logged transport failures
  'vault answered {}',
  'not charged', // vault/client.ts: the logged reason of a card not charged
]);

const GENERIC_WORDS = /\b(the|must|is|not|request|invalid|payment|required|only|with|and|of)\b/i;

describe('error texts in Portuguese', () => {
  test('every error text in the source has a pt-BR entry', () => {
    const dirs = ['http', 'modules', 'lib'].map((d) => path.join(SRC, d));
    const texts = errorTextsIn([...dirs, path.join(SRC, 'app.ts')]);
    assert.ok(texts.length > 150, `the scan found ${texts.length} texts`);
    const missing: string[] = [];
    for (const found of texts) {
      if (NOT_SHOWN.has(found.text)) continue;
      const english = (found.builder === 'notFound' ? `${found.text} not found` : found.text).replace(/\{\}/g, '7');
      if (toPortuguese(english) === undefined) missing.push(`${path.relative(REPO_ROOT, found.file)}:${found.line} ${JSON.stringify(found.text)}`);
    }
    assert.deepEqual(missing, [], 'texts without a Portuguese entry in src/lib/i18n/messages-pt-br.ts');
  });

  test('each entry keeps its placeholders and is not left in English', () => {
    for (const [english, portuguese] of Object.entries(PT_BR)) {
      assert.equal(portuguese.split('{}').length, english.split('{}').length, `placeholders of ${english}`);
      assert.notEqual(portuguese, english);
    }
  });

  test('a summary of details is translated detail by detail; code and field never change', () => {
    const body = localizeBody(
      { code: 'VALIDATION_ERROR', message: 'Invalid request: amountCents must be at least 1; buyer.email is required', details: [{ field: 'amountCents', message: 'must be at least 1' }, { field: 'buyer.email', message: 'is required' }] },
      'pt-BR',
    );
    assert.deepEqual(body, {
      code: 'VALIDATION_ERROR',
      message: 'Requisição inválida: amountCents deve ser no mínimo 1; buyer.email é obrigatório',
      details: [{ field: 'amountCents', message: 'deve ser no mínimo 1' }, { field: 'buyer.email', message: 'é obrigatório' }],
    });
    assert.equal(localizeBody({ code: 'WEBHOOK_URL_INVALID', message: 'The webhook URL is not allowed: scheme must be https' }, 'pt-BR').message, 'A URL do webhook não é permitida: o esquema deve ser https');
    // A text the catalog lacks becomes the code's meaning, never English.
    assert.deepEqual(localizeBody({ code: 'NOT_FOUND', message: 'Something new', details: [{ field: 'x', message: 'is odd' }] }, 'pt-BR'), {
      code: 'NOT_FOUND',
      message: 'Não encontrado',
      details: [{ field: 'x', message: 'é inválido' }],
    });
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

    /** The same request in English and in Portuguese: same status, code and fields; every text translated by the catalog. */
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
      // Every text comes from the catalog (not the per-code fallback), and differs from the English.
      assert.deepEqual(localizeBody(e, 'pt-BR'), p);
      assert.ok(toPortuguese(e.message) !== undefined || (e.details && e.details.length > 0), `message in the catalog: ${e.message}`);
      assert.notEqual(p.message, e.message);
      for (const [i, d] of (e.details ?? []).entries()) {
        assert.notEqual(toPortuguese(d.message), undefined, `detail in the catalog: ${d.message}`);
        assert.doesNotMatch(p.details![i]!.message, GENERIC_WORDS, p.details![i]!.message);
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
