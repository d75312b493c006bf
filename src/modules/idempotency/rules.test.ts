import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notFound } from '../../lib/domain-error.js';
import { viewJson } from '../../lib/view-json.js';
import { responseBytes } from './rules.js';

describe('viewJson', () => {
  it('is JSON.stringify, made once per object: the stored bytes are the ones the first answer sends', () => {
    const view = { id: 'pi_1', amountCents: 100, nested: { a: [1, 2] } };
    const stored = responseBytes(view, 'en');
    assert.equal(stored, JSON.stringify(view));
    // The same object is not stringified again, even if something changed it after the bytes were stored.
    view.amountCents = 200;
    assert.equal(viewJson(view), stored);
    // Another object gets its own bytes.
    assert.equal(viewJson({ ...view }), JSON.stringify({ ...view }));
  });

  it('stores an error in the language asked for, and takes values that are not objects', () => {
    const error = notFound('paymentIntent');
    assert.deepEqual(JSON.parse(responseBytes(error, 'en')), { code: 'NOT_FOUND', message: 'Payment intent not found' });
    assert.deepEqual(JSON.parse(responseBytes(error, 'pt-BR')), { code: 'NOT_FOUND', message: 'Intenção de pagamento não encontrada' });
    assert.equal(viewJson('text'), '"text"');
    assert.equal(viewJson(null), 'null');
  });
});
