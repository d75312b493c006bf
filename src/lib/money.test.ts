import { test } from 'node:test';
import assert from 'node:assert/strict';
import { centsToDecimal, MAX_AMOUNT_CENTS, percentOfFloor, percentOfHalfUp } from './money.js';

test('half-up: just below .5 rounds down (99 bp of 50 = 0.495 -> 0)', () => {
  assert.equal(percentOfHalfUp(50, 99), 0);
  assert.equal(percentOfHalfUp(10_049, 100), 100); // 100.49
});

test('half-up: just above .5 rounds up (99 bp of 51 = 0.5049 -> 1)', () => {
  assert.equal(percentOfHalfUp(51, 99), 1);
  assert.equal(percentOfHalfUp(10_051, 100), 101); // 100.51
});

test('half-up: exactly .5 rounds up', () => {
  assert.equal(percentOfHalfUp(50, 100), 1); // 0.5
  assert.equal(percentOfHalfUp(150, 100), 2); // 1.5
  assert.equal(percentOfHalfUp(250, 100), 3); // 2.5 (not banker's rounding to 2)
  assert.equal(percentOfHalfUp(10_050, 100), 101); // 100.5
});

test('exact values are returned unchanged', () => {
  assert.equal(percentOfHalfUp(10_000, 99), 99);
  assert.equal(percentOfHalfUp(10_000, 349), 349);
  assert.equal(percentOfHalfUp(20_000, 10_000), 20_000);
  assert.equal(percentOfHalfUp(12_345, 0), 0);
  assert.equal(percentOfHalfUp(0, 349), 0);
});

test('the largest amount times the largest rate stays exact', () => {
  assert.equal(percentOfHalfUp(MAX_AMOUNT_CENTS, 10_000), MAX_AMOUNT_CENTS);
  assert.equal(percentOfHalfUp(MAX_AMOUNT_CENTS, 449), 449_000_000); // 448 999 999.9551 -> up
  assert.equal(percentOfFloor(MAX_AMOUNT_CENTS, 449), 448_999_999); // -> down
});

test('floor never rounds up', () => {
  assert.equal(percentOfFloor(51, 99), 0);
  assert.equal(percentOfFloor(50, 100), 0);
  assert.equal(percentOfFloor(199, 5_000), 99);
  assert.equal(percentOfFloor(10_000, 1_050), 1_050);
});

test('centsToDecimal writes two decimals with a dot', () => {
  assert.equal(centsToDecimal(1), '0.01');
  assert.equal(centsToDecimal(10), '0.10');
  assert.equal(centsToDecimal(100), '1.00');
  assert.equal(centsToDecimal(1234), '12.34');
  assert.equal(centsToDecimal(10_000), '100.00');
  assert.equal(centsToDecimal(MAX_AMOUNT_CENTS), '99999999.99');
});
