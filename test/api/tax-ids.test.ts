/**
 * The alphanumeric CNPJ (IN RFB 2.229/2024) through the API, wherever a CNPJ
 * is taken: the buyer's document, a split recipient (an approved account), the
 * receivables filter, and a company created by the operator. Formatted input
 * is refused with the field named and the shape said in words.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDomainError } from '../../src/lib/domain-error.js';
import { engines } from '../helpers/db.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assertError } from '../helpers/assert.js';
import { BUYER, pct, pixIntent } from '../helpers/fixtures.js';

type Json = Record<string, any>;

const ALPHANUMERIC = '12ABC34501DE35'; // the Receita's example
const RECIPIENT = 'AB1CD2EF3GH490'; // another alphanumeric CNPJ, for an account of its own

function createIntent(t: TestApp, body: Json) {
  return t.call({ method: 'POST', url: '/v2/payment-intents', payload: body });
}

for (const engine of engines()) {
  describe(`the alphanumeric CNPJ on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => {
      await t.close();
    });

    test('a buyer with an alphanumeric CNPJ pays a Pix', async () => {
      const res = await createIntent(t, pixIntent({ buyer: { ...BUYER, document: ALPHANUMERIC }, confirm: true }));
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().buyer.document, ALPHANUMERIC);
    });

    test('a formatted or lowercase document is refused naming the field and the shape', async () => {
      for (const document of ['529.982.247-25', '11.222.333/0001-81', '12.ABC.345/01DE-35', '12abc34501de35']) {
        const body = assertError(await createIntent(t, pixIntent({ buyer: { ...BUYER, document } })), 400, 'VALIDATION_ERROR', 'buyer.document');
        const message = body.details!.find((d) => d.field === 'buyer.document')!.message;
        assert.match(message, /digits only/, document);
        assert.match(message, /digits and capital letters/, document);
      }
    });

    test('an alphanumeric CNPJ with a wrong check digit is refused for its check digits', async () => {
      const body = assertError(await createIntent(t, pixIntent({ buyer: { ...BUYER, document: '12ABC34501DE36' } })), 400, 'VALIDATION_ERROR', 'buyer.document');
      assert.match(body.details![0]!.message, /check digits/);
    });

    test('an approved account with an alphanumeric CNPJ receives a split, listed by its document', async () => {
      assert.ok(!isDomainError(await t.services.companies.createAccount(RECIPIENT, 'Parceiro Alfanumérico Ltda')));
      assert.ok(!isDomainError(await t.services.companies.approveAccount(RECIPIENT)));
      const res = await createIntent(t, pixIntent({ referenceId: 'alnum-split', confirm: true, splitRules: [pct(RECIPIENT, 10)] }));
      assert.equal(res.statusCode, 201, res.body);
      const trx = res.json().transaction;
      const paid = await t.call({ method: 'POST', url: `/v2/sandbox/transactions/${trx.id}/pay` });
      assert.equal(paid.statusCode, 200, paid.body);
      const listed = await t.call({ method: 'GET', url: `/v2/receivables?recipientDocument=${RECIPIENT}` });
      assert.equal(listed.statusCode, 200, listed.body);
      const lines = listed.json().data as Json[];
      assert.ok(lines.length > 0, 'the recipient has a receivable');
      for (const line of lines) assert.equal(line.recipientDocument, RECIPIENT);
      assert.equal(lines.reduce((sum, l) => sum + l.grossAmountCents, 0), 1_000, '10 % of R$ 100,00');
    });

    test('a formatted split recipient is refused naming the rule', async () => {
      const res = await createIntent(t, pixIntent({ splitRules: [pct('12.ABC.345/01DE-35', 10)] }));
      const body = assertError(res, 400, 'VALIDATION_ERROR', 'splitRules[0].recipientDocument');
      assert.match(body.details![0]!.message, /digits and capital letters/);
    });

    test('the operator creates a company with an alphanumeric CNPJ, and not with a formatted one', async () => {
      const created = await t.services.companies.createCompany('Loja Alfanumérica Ltda', ALPHANUMERIC);
      assert.ok(!isDomainError(created), String(isDomainError(created) && created.message.en));
      assert.equal(created.document, ALPHANUMERIC);
      const refused = await t.services.companies.createCompany('Loja Formatada Ltda', '12.ABC.345/01DE-35');
      assert.ok(isDomainError(refused));
      assert.match(refused.message.en, /digits only/);
    });
  });
}
