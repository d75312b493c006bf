import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_FEE_PLAN, saleFeeCents } from './fees.js';

const fee = (method: 'PIX' | 'BOLETO' | 'CREDIT_CARD', amount: number, installments = 1) => saleFeeCents(DEFAULT_FEE_PLAN, method, installments, amount);

test('the default plan is Pix 0.99 %, boleto 349 flat, card 3.49 / 3.99 / 4.49 %', () => {
  assert.deepEqual(DEFAULT_FEE_PLAN, { pixBp: 99, boletoFlatCents: 349, card1Bp: 349, card2to6Bp: 399, card7to12Bp: 449 });
});

test('Pix pays 0.99 % rounded half-up', () => {
  assert.equal(fee('PIX', 10_000), 99);
  assert.equal(fee('PIX', 50), 0); // 0.495
  assert.equal(fee('PIX', 51), 1); // 0.5049
  assert.equal(fee('PIX', 12_345), 122); // 122.2155
});

test('boleto pays 349 centavos whatever the amount', () => {
  assert.equal(fee('BOLETO', 500), 349);
  assert.equal(fee('BOLETO', 10_000), 349);
  assert.equal(fee('BOLETO', 99_999_999_99), 349);
});

test('card in 1 installment pays 3.49 %', () => {
  assert.equal(fee('CREDIT_CARD', 10_000, 1), 349);
});

test('card in 2 to 6 installments pays 3.99 %', () => {
  for (const n of [2, 3, 6]) assert.equal(fee('CREDIT_CARD', 10_000, n), 399, `${n}x`);
});

test('card in 7 to 12 installments pays 4.49 %', () => {
  for (const n of [7, 10, 12]) assert.equal(fee('CREDIT_CARD', 10_000, n), 449, `${n}x`);
});

test('the band edges are 1 | 2, 6 | 7', () => {
  assert.equal(fee('CREDIT_CARD', 100_000, 1), 3_490);
  assert.equal(fee('CREDIT_CARD', 100_000, 2), 3_990);
  assert.equal(fee('CREDIT_CARD', 100_000, 6), 3_990);
  assert.equal(fee('CREDIT_CARD', 100_000, 7), 4_490);
  assert.equal(fee('CREDIT_CARD', 100_000, 12), 4_490);
});

test('the fee is never above the amount', () => {
  assert.equal(fee('BOLETO', 300), 300);
  assert.equal(saleFeeCents({ ...DEFAULT_FEE_PLAN, pixBp: 20_000 }, 'PIX', 1, 100), 100);
  for (let amount = 1; amount <= 2_000; amount += 7) {
    for (const method of ['PIX', 'BOLETO', 'CREDIT_CARD'] as const) {
      const f = fee(method, amount, method === 'CREDIT_CARD' ? 12 : 1);
      assert.ok(f >= 0 && f <= amount, `${method} ${amount}: ${f}`);
    }
  }
});

test('a company plan overrides the defaults', () => {
  const plan = { pixBp: 50, boletoFlatCents: 199, card1Bp: 100, card2to6Bp: 200, card7to12Bp: 300 };
  assert.equal(saleFeeCents(plan, 'PIX', 1, 10_000), 50);
  assert.equal(saleFeeCents(plan, 'BOLETO', 1, 10_000), 199);
  assert.equal(saleFeeCents(plan, 'CREDIT_CARD', 1, 10_000), 100);
  assert.equal(saleFeeCents(plan, 'CREDIT_CARD', 4, 10_000), 200);
  assert.equal(saleFeeCents(plan, 'CREDIT_CARD', 8, 10_000), 300);
});
