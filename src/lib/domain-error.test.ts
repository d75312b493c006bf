import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError, MAX_DETAILS, MAX_FIELD_LENGTH, shownField, validationError, validationFailure } from './domain-error.js';
import { PROBLEMS } from './i18n/messages/problems.js';

test('a field path longer than 100 characters is cut to its first 99 and an ellipsis', () => {
  assert.equal(MAX_FIELD_LENGTH, 100);
  assert.equal(shownField('a'.repeat(100)), 'a'.repeat(100));
  assert.equal(shownField('b'.repeat(101)), `${'b'.repeat(99)}…`);
  assert.equal(shownField('c'.repeat(1_000_000)).length, 100);
});

test('the cut never leaves half of a surrogate pair', () => {
  const field = `${'x'.repeat(98)}😀${'y'.repeat(50)}`;
  const shown = shownField(field);
  assert.equal(shown, `${'x'.repeat(98)}…`);
  assert.ok(!/\p{Cs}/u.test(shown));
});

test('an invalid value names its cut field in the message and the detail, in both languages', () => {
  const long = `k${'x'.repeat(500)}`;
  const error = validationError(long, PROBLEMS.nul);
  const field = `k${'x'.repeat(98)}…`;
  assert.deepEqual(error.toBody('en'), {
    code: 'VALIDATION_ERROR',
    message: `Invalid value for ${field}: must not contain the NUL character`,
    details: [{ field, message: 'must not contain the NUL character' }],
  });
  assert.deepEqual(error.toBody('pt-BR'), {
    code: 'VALIDATION_ERROR',
    message: `Valor inválido para ${field}: não pode conter o caractere NUL`,
    details: [{ field, message: 'não pode conter o caractere NUL' }],
  });
});

test('an error lists at most 20 details, and its summary says the same ones', () => {
  assert.equal(MAX_DETAILS, 20);
  const details = Array.from({ length: 50 }, (_, i) => ({ field: `f${i}`, message: PROBLEMS.unknownField }));
  const error = validationFailure(details);
  const en = error.toBody('en');
  assert.deepEqual(en.details?.map((d) => d.field), details.slice(0, 20).map((d) => d.field));
  assert.equal(en.message, `Invalid request: ${details.slice(0, 20).map((d) => `${d.field} is not a known field`).join('; ')}`);
  assert.equal(error.toBody('pt-BR').message, `Requisição inválida: ${details.slice(0, 20).map((d) => `${d.field} não é um campo conhecido`).join('; ')}`);
  // The bound holds for an error made directly too.
  assert.equal(new DomainError('SPLIT_INVALID', PROBLEMS.invalid, details).details?.length, 20);
});
