import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isValidCnpj, isValidCpf, isValidTaxId, taxIdProblem } from './tax-id.js';

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

// ---- the alphanumeric CNPJ (IN RFB 2.229/2024) --------------------------------

/** The Receita's own example of an alphanumeric CNPJ. */
const ALPHANUMERIC = '12ABC34501DE35';
const CHARSET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The rule as the instruction states it: digits keep their value, A is 17, B 18 … Z 42; mod 11 over the usual weights. */
function referenceCheckDigits(base: string): string {
  const value = (c: string) => (/\d/.test(c) ? Number(c) : 17 + c.charCodeAt(0) - 'A'.charCodeAt(0));
  const digit = (chars: string, weights: number[]) => {
    const rest = weights.reduce((sum, w, i) => sum + value(chars[i]!) * w, 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const d1 = digit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d1}${digit(base + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])}`;
}

const base12 = fc.string({ unit: fc.constantFrom(...CHARSET), minLength: 12, maxLength: 12 }).filter((b) => !/^(\d)\1{11}$/.test(b));

test('the alphanumeric CNPJ of the instruction is valid, as a CNPJ and as a tax id', () => {
  assert.ok(isValidCnpj(ALPHANUMERIC));
  assert.ok(isValidTaxId(ALPHANUMERIC));
  assert.equal(taxIdProblem(ALPHANUMERIC), undefined);
});

test('any 12 digits or capital letters with their check digits make a valid CNPJ', () => {
  fc.assert(fc.property(base12, (base) => isValidCnpj(base + referenceCheckDigits(base))));
});

test('any other pair of check digits is refused', () => {
  fc.assert(
    fc.property(base12, fc.integer({ min: 0, max: 99 }), (base, n) => {
      const right = referenceCheckDigits(base);
      const other = String(n).padStart(2, '0');
      return isValidCnpj(base + other) === (other === right);
    }),
  );
});

test('numeric CNPJs are judged as before the alphanumeric CNPJ', () => {
  const digitsOnly = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 12, maxLength: 12 }).filter((b) => !/^(\d)\1{11}$/.test(b));
  fc.assert(fc.property(digitsOnly, (base) => isValidCnpj(base + referenceCheckDigits(base))));
  for (const cnpj of CNPJS) assert.equal(referenceCheckDigits(cnpj.slice(0, 12)), cnpj.slice(12));
});

test('lowercase letters, letters among the check digits and punctuation are refused', () => {
  fc.assert(fc.property(base12.filter((b) => /[A-Z]/.test(b)), (base) => !isValidTaxId((base + referenceCheckDigits(base)).toLowerCase())));
  assert.equal(isValidCnpj('12ABC34501DEA5'), false);
  assert.equal(isValidCnpj('12.ABC.345/01DE-35'), false);
});

test('a refused tax id says why: its shape in words, or its check digits', () => {
  for (const formatted of ['529.982.247-25', '11.222.333/0001-81', '12.ABC.345/01DE-35', '12abc34501de35', '1122233300018']) {
    const problem = taxIdProblem(formatted)?.en ?? '';
    assert.match(problem, /digits only/, formatted);
    assert.match(problem, /digits and capital letters/, formatted);
  }
  assert.equal(taxIdProblem('12ABC34501DE36')?.en, 'is not a valid CPF or CNPJ (check digits)');
  assert.equal(taxIdProblem('52998224725'), undefined);
});
