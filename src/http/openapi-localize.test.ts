/**
 * The API reference in Portuguese (GET /openapi.json?lang=pt-BR, what
 * GET /docs shows in Portuguese): every text a person reads is translated,
 * nothing a program reads changes.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { openApiDocuments } from '../openapi-documents.js';
import { API_GUIDE } from './api-guide.js';
import { localizeDocument } from './openapi-localize.js';
import { PT_BR_DOCUMENT } from './openapi-pt-br.js';

type Json = Record<string, any>;

/** Every operation of the document's paths, with its path and method. */
const operations = (doc: Json) => Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })));

/** The document with every person's text (title, summary, description, tag names) blanked: what a program reads. */
function skeleton(node: unknown, key = ''): unknown {
  if (Array.isArray(node)) return key === 'tags' ? node.map(() => '') : node.map((item) => skeleton(item));
  if (typeof node !== 'object' || node === null) return ['title', 'summary', 'description'].includes(key) && typeof node === 'string' ? '' : node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, ['examples', 'example', 'enum', 'default', 'required'].includes(k) ? v : skeleton(v, k)]));
}

describe('the API reference in Portuguese', () => {
  let english: Json;
  let portuguese: Json;
  let missing: string[];

  before(async () => {
    english = (await openApiDocuments()).api as Json;
    ({ document: portuguese, missing } = localizeDocument(english, PT_BR_DOCUMENT));
  });

  test('every text of the document has its Portuguese (a new or reworded English text needs an entry in openapi-pt-br*.ts)', () => {
    assert.deepEqual(missing, []);
  });

  test('the title, the guide, the tag names, the summaries and the responses are Portuguese', () => {
    assert.equal(portuguese.info.title, 'API de cobranças');
    assert.notEqual(portuguese.info.description, API_GUIDE);
    assert.match(portuguese.info.description, /^Cobre compradores por cartão, Pix e boleto/);
    const create = portuguese.paths['/v2/payment-intents'].post;
    assert.deepEqual(create.tags, ['Intenções de pagamento']);
    assert.equal(create.summary, 'Criar uma intenção de pagamento (com confirm: true, também confirmá-la)');
    assert.equal(create.responses['201'].description, 'Criado: a intenção de pagamento');
    assert.equal(portuguese.paths['/healthz'].get.tags[0], 'Saúde', 'no group named "Operation" (or "Health") left');
    const notFound = portuguese.paths['/v2/payment-intents/{id}'].get.responses['404'];
    assert.equal(notFound.description, 'NOT_FOUND: nenhum recurso assim para esta empresa');
    assert.equal(notFound.content['application/json'].schema.description, notFound.description, 'the error schema says the same');
    assert.equal(portuguese.components.schemas.Transaction.properties.refundedCents.description, 'a soma dos reembolsos SUCCEEDED');
  });

  test('no English text is left where the English document has one (names the same in both languages aside)', () => {
    const same = new Set(['Webhooks', 'Sandbox', 'plink_']);
    for (const { path, method, op } of operations(english)) {
      const translated = portuguese.paths[path][method];
      if (!same.has(op.summary)) assert.notEqual(translated.summary, op.summary, `${method} ${path}`);
      for (const tag of op.tags) if (!same.has(tag)) assert.ok(!translated.tags.includes(tag), `${method} ${path}: ${tag}`);
      for (const [status, response] of Object.entries(op.responses as Json)) assert.notEqual(translated.responses[status].description, (response as Json).description, `${method} ${path} ${status}`);
    }
  });

  test('what a program reads is unchanged: paths, operation ids, schemas, codes, examples', () => {
    assert.deepEqual(skeleton(portuguese), skeleton(english));
    assert.equal(JSON.stringify(skeleton(english)).length > 10_000, true, 'the skeleton is the document, not an empty shell');
  });
});
