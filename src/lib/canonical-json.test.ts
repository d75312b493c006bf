import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from './canonical-json.js';

test('object keys are sorted at every level and no whitespace is written', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, 2], c: 'x' } }), '{"a":{"c":"x","d":[1,2]},"b":1}');
});

test('two bodies that differ only in key order give the same text', () => {
  const a = JSON.parse('{"amountCents": 100, "buyer": {"name": "A", "document": "1"}, "paymentMethod": "PIX"}');
  const b = JSON.parse('{"paymentMethod":"PIX","buyer":{"document":"1","name":"A"},"amountCents":100}');
  assert.equal(canonicalJson(a), canonicalJson(b));
});

test('different values give different text', () => {
  assert.notEqual(canonicalJson({ a: 1 }), canonicalJson({ a: 2 }));
  assert.notEqual(canonicalJson({ a: '1' }), canonicalJson({ a: 1 }));
  assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1])); // array order matters
  assert.notEqual(canonicalJson({ a: null }), canonicalJson({}));
});

test('undefined object members are dropped like JSON.stringify does', () => {
  assert.equal(canonicalJson({ a: 1, b: undefined }), '{"a":1}');
  assert.equal(canonicalJson(undefined), 'null');
});

test('scalars, null and strings with special characters are JSON-encoded', () => {
  assert.equal(canonicalJson(null), 'null');
  assert.equal(canonicalJson(true), 'true');
  assert.equal(canonicalJson(1.5), '1.5');
  assert.equal(canonicalJson('a"b\\ção\n'), JSON.stringify('a"b\\ção\n'));
  assert.equal(canonicalJson({ 'k"ey': 1 }), '{"k\\"ey":1}');
});

test('the output is valid JSON equal to the input', () => {
  const value = { z: [{ y: 1, x: [null, 'a'] }], m: { n: { o: false } }, a: -0.25 };
  assert.deepEqual(JSON.parse(canonicalJson(value)), value);
});

test('a value nested deeper than the limit is a RangeError, never a stack overflow', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.throws(() => canonicalJson(deep), RangeError);
  assert.equal(canonicalJson([[[1]]], 3), '[[[1]]]');
  assert.throws(() => canonicalJson([[[[1]]]], 3), RangeError);
});
