import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonTextProblem, MAX_JSON_DEPTH, MAX_JSON_VALUES } from './input-guard.js';

const problemOf = (text: string): string | undefined => jsonTextProblem(text)?.toBody('en').details?.map((d) => `${d.field} ${d.message}`).join('; ');

test('a JSON text nested deeper than 32 levels is refused before it is parsed; brackets inside strings do not count', () => {
  assert.equal(MAX_JSON_DEPTH, 32);
  assert.equal(problemOf(`${'['.repeat(32)}${']'.repeat(32)}`), undefined);
  assert.equal(problemOf(`${'{"a":'.repeat(32)}1${'}'.repeat(32)}`), undefined);
  assert.equal(problemOf(`${'['.repeat(33)}${']'.repeat(33)}`), 'body is nested deeper than 32 levels');
  assert.equal(problemOf(`${'{"a":'.repeat(20)}${'['.repeat(13)}${']'.repeat(13)}${'}'.repeat(20)}`), 'body is nested deeper than 32 levels');
  assert.equal(problemOf(JSON.stringify({ text: '['.repeat(100), quoted: '\\"[[[[', more: '{'.repeat(100) })), undefined);
  // A string that ends in an escaped backslash closes where it should: the brackets after it count.
  assert.equal(problemOf(`{"a":"\\\\",${'"b":['.repeat(1)}${'['.repeat(32)}${']'.repeat(33)}}`), 'body is nested deeper than 32 levels');
});

test('a JSON text with more than 1,000 keys and array items is refused before it is parsed', () => {
  assert.equal(MAX_JSON_VALUES, 1_000);
  const object = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
  const array = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => i));
  assert.equal(problemOf(object(1_000)), undefined);
  assert.equal(problemOf(object(1_001)), 'body has more than 1000 keys and array items');
  assert.equal(problemOf(array(1_000)), undefined);
  assert.equal(problemOf(array(1_001)), 'body has more than 1000 keys and array items');
  // Keys and items together: 500 keys whose values are arrays of one item make 1,000.
  assert.equal(problemOf(JSON.stringify(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, [i]])))), undefined);
  assert.equal(problemOf(JSON.stringify(Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`k${i}`, [i]])))), 'body has more than 1000 keys and array items');
  // Empty arrays and objects hold nothing; commas and colons inside strings are text.
  assert.equal(problemOf(JSON.stringify(Array.from({ length: 900 }, () => []))), undefined);
  assert.equal(problemOf(JSON.stringify({ a: ',:,:'.repeat(10_000) })), undefined);
  // Whitespace between tokens changes nothing.
  assert.equal(problemOf(` [ ${Array.from({ length: 1_001 }, () => ' 1 ').join(' , ')} ] `), 'body has more than 1000 keys and array items');
});
