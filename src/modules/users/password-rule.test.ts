import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPasswordTooShort, MIN_PASSWORD_LENGTH } from './password-rule.js';
import { checkPassword } from './rules.js';

test('a password is measured in characters as a person counts them, by the API and the dashboard alike', () => {
  assert.equal(MIN_PASSWORD_LENGTH, 12);
  // 11 emoji are 22 UTF-16 code units: still 11 characters, too short for both.
  const elevenEmoji = '😀'.repeat(11);
  assert.equal(elevenEmoji.length, 22);
  assert.equal(isPasswordTooShort(elevenEmoji), true);
  const refused = checkPassword(elevenEmoji);
  assert.equal(refused?.code, 'VALIDATION_ERROR');
  assert.equal(refused?.details?.[0]?.field, 'password');
  for (const enough of ['😀'.repeat(12), 'senha forte1', 'a'.repeat(12)]) {
    assert.equal(isPasswordTooShort(enough), false, enough);
    assert.equal(checkPassword(enough), undefined, enough);
  }
  assert.equal(isPasswordTooShort('a'.repeat(11)), true);
});
