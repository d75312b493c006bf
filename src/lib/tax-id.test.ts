import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidCnpj, isValidCpf, isValidTaxId } from './tax-id.js';

// Well-known valid documents (check digits computed by the mod-11 rule).
const CPFS = ['52998224725', '11144477735', '12345678909', '00000000191'];
const CNPJS = ['11222333000181', '11444777000161', '00000000000191'];

test('valid CPFs are accepted', () => {
  for (const cpf of CPFS) assert.ok(isValidCpf(cpf), cpf);
});

test('valid CNPJs are accepted', () => {
  for (const cnpj of CNPJS) assert.ok(isValidCnpj(cnpj), cnpj);
});

test('a CPF with either check digit wrong is refused', () => {
  for (const cpf of CPFS) {
    for (const pos of [9, 10]) {
      const wrong = cpf.slice(0, pos) + String((Number(cpf[pos]) + 1) % 10) + cpf.slice(pos + 1);
      assert.equal(isValidCpf(wrong), false, wrong);
    }
  }
});

test('a CNPJ with either check digit wrong is refused', () => {
  for (const cnpj of CNPJS) {
    for (const pos of [12, 13]) {
      const wrong = cnpj.slice(0, pos) + String((Number(cnpj[pos]) + 1) % 10) + cnpj.slice(pos + 1);
      assert.equal(isValidCnpj(wrong), false, wrong);
    }
  }
});

test('a changed body digit is detected', () => {
  assert.equal(isValidCpf('62998224725'), false);
  assert.equal(isValidCnpj('21222333000181'), false);
});

test('repeated digits pass the arithmetic but are refused', () => {
  for (let d = 0; d <= 9; d++) {
    assert.equal(isValidCpf(String(d).repeat(11)), false);
    assert.equal(isValidCnpj(String(d).repeat(14)), false);
  }
});

test('wrong lengths and non-digits are refused', () => {
  for (const bad of ['', '5299822472', '529982247250', '529.982.247-25', '5299822472a', ' 52998224725']) assert.equal(isValidCpf(bad), false, bad);
  for (const bad of ['1122233300018', '112223330001810', '11.222.333/0001-81']) assert.equal(isValidCnpj(bad), false, bad);
});

test('isValidTaxId picks CPF for 11 digits and CNPJ for 14, and nothing else', () => {
  assert.ok(isValidTaxId('52998224725'));
  assert.ok(isValidTaxId('11222333000181'));
  assert.equal(isValidTaxId('52998224724'), false);
  assert.equal(isValidTaxId('11222333000182'), false);
  assert.equal(isValidTaxId('1122233300018'), false); // 13 digits
  assert.equal(isValidTaxId('529982247'), false);
  assert.equal(isValidTaxId(''), false);
});
