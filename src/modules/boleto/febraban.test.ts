import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildBoleto,
  digitableLineToBarcode,
  dueDateFactor,
  formatDigitableLine,
  mod10,
  mod11Barcode,
  sandboxFreeField,
  validateDigitableLine,
} from './index.js';

/**
 * Published examples. Each one is copied digit for digit from an open-source
 * boleto library's test suite, which gives the printed digitable line, the
 * barcode and the inputs (due date, amount); bank and free field are read back
 * from the published barcode, so buildBoleto must reproduce both exactly.
 */
interface Fixture {
  source: string;
  line: string; // printed form, as published
  barcode: string;
  dueDate: string;
  amountCents: number;
}

const FIXTURES: Fixture[] = [
  {
    // eduardocereto/pyboleto tests/test_banco_itau.py (commit 0aa03f2e): Itaú, 2009-10-19, R$ 29,80
    source: 'pyboleto Itaú',
    line: '34191.09008 00015.710296 30132.800001 9 43950000002980',
    barcode: '34199439500000029801090000015710293013280000',
    dueDate: '2009-10-19',
    amountCents: 2980,
  },
  {
    // eduardocereto/pyboleto tests/test_banco_bradesco.py (commit 0aa03f2e): Bradesco, 2011-02-05, R$ 8.280,00
    source: 'pyboleto Bradesco',
    line: '23790.27804 60000.212559 25003.923205 4 48690000828000',
    barcode: '23794486900008280000278060000212552500392320',
    dueDate: '2011-02-05',
    amountCents: 828000,
  },
  {
    // eduardocereto/pyboleto tests/test_banco_do_brasil.py (commit 3086ad0b): Banco do Brasil, 2011-03-08, R$ 2.952,95
    source: 'pyboleto Banco do Brasil',
    line: '00190.00009 07777.777009 00087.654182 6 49000000295295',
    barcode: '00196490000002952950000007777777000008765418',
    dueDate: '2011-03-08',
    amountCents: 295295,
  },
  {
    // kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb (commit 0a8d37aa): Itaú, 2029-05-20, R$ 6.757,87
    // After the 2025 restart: factor 2548 = 1000 + days since 2025-02-22.
    source: 'brcobranca Itaú (second factor cycle)',
    line: '34191.09008 01015.271248 80212.460002 4 25480000675787',
    barcode: '34194254800006757871090001015271248021246000',
    dueDate: '2029-05-20',
    amountCents: 675787,
  },
  {
    // kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb (commit 0a8d37aa): Itaú, 2004-09-05, R$ 135,00
    source: 'brcobranca Itaú 2004',
    line: '34191.68004 25828.120813 05367.890000 4 25250000013500',
    barcode: '34194252500000135001680025828120810536789000',
    dueDate: '2004-09-05',
    amountCents: 13500,
  },
  {
    // kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb (commit 0a8d37aa): Itaú, 2008-02-02, R$ 135,00
    // Its general DV is 1 (the folded case), see the limitation test below.
    source: 'brcobranca Itaú 2008',
    line: '34191.75009 25828.170818 05367.890000 1 37700000013500',
    barcode: '34191377000000135001750025828170810536789000',
    dueDate: '2008-02-02',
    amountCents: 13500,
  },
];

const digitsOf = (printed: string): string => printed.replace(/[.\s]/g, '');

test('due date factor: first cycle, FEBRABAN restart, second cycle', () => {
  assert.equal(dueDateFactor('2000-07-03'), '1000');
  assert.equal(dueDateFactor('2025-02-21'), '9999');
  assert.equal(dueDateFactor('2025-02-22'), '1000');
  assert.equal(dueDateFactor('2025-02-23'), '1001');
  // 2025-02-22 -> 2026-01-01 is 6 (rest of Feb) + 1 + 306 (Mar..Dec) = 313 days.
  assert.equal(dueDateFactor('2026-01-01'), '1313');
  assert.equal(dueDateFactor('2049-10-13'), '9999'); // last day of the second cycle
});

test('due date factor: dates outside the representable range and bad dates throw', () => {
  for (const bad of ['1997-10-07', '2000-07-02', '2049-10-14', '2105-01-01', '2025-02-30', '2025-2-22', '']) {
    assert.throws(() => dueDateFactor(bad), RangeError, bad);
  }
});

test('mod10 on known values', () => {
  assert.equal(mod10('7992739871'), 3); // the classic Luhn example: same weights and digit sums
  // Fields of the pyboleto Itaú line 34191.09008 00015.710296 30132.800001
  assert.equal(mod10('341910900'), 8);
  assert.equal(mod10('0001571029'), 6);
  assert.equal(mod10('3013280000'), 1);
  assert.equal(mod10('0'), 0);
  assert.throws(() => mod10(''), RangeError);
  assert.throws(() => mod10('12a'), RangeError);
});

test('mod11Barcode on known values, including the folded results', () => {
  const withoutDv = (barcode: string) => barcode.slice(0, 4) + barcode.slice(5);
  assert.equal(mod11Barcode(withoutDv('34199439500000029801090000015710293013280000')), 9); // pyboleto Itaú
  assert.equal(mod11Barcode(withoutDv('00196490000002952950000007777777000008765418')), 6); // pyboleto BB
  assert.equal(mod11Barcode(withoutDv('34191377000000135001750025828170810536789000')), 1); // brcobranca 2008
  assert.equal(mod11Barcode('0'.repeat(43)), 1); // sum 0: 11 - 0 = 11 -> 1
  assert.equal(mod11Barcode('0'.repeat(42) + '6'), 1); // sum 12, rest 1: 11 - 1 = 10 -> 1
  assert.equal(mod11Barcode('0'.repeat(42) + '1'), 9); // sum 2: 11 - 2 = 9
  assert.equal(mod11Barcode('0'.repeat(41) + '10'), 8); // weight 3 on the second digit from the right
  assert.throws(() => mod11Barcode('0'.repeat(44)), RangeError);
});

for (const fx of FIXTURES) {
  test(`published example (${fx.source}): validates, converts and is reproduced by buildBoleto`, () => {
    assert.deepEqual(validateDigitableLine(fx.line), { valid: true });
    assert.deepEqual(validateDigitableLine(digitsOf(fx.line)), { valid: true });
    assert.equal(digitableLineToBarcode(fx.line), fx.barcode);
    assert.equal(formatDigitableLine(digitsOf(fx.line)), fx.line);
    assert.equal(dueDateFactor(fx.dueDate), fx.barcode.slice(5, 9));

    const built = buildBoleto({
      bankCode: fx.barcode.slice(0, 3),
      amountCents: fx.amountCents,
      dueDate: fx.dueDate,
      freeField: fx.barcode.slice(19),
    });
    assert.equal(built.barcode, fx.barcode);
    assert.equal(built.digitableLine, digitsOf(fx.line));
  });
}

test('barcode layout and round trip barcode <-> digitable line', () => {
  const cases = [
    { bankCode: '001', amountCents: 1, dueDate: '2000-07-03', freeField: sandboxFreeField(1) },
    { bankCode: '341', amountCents: 500, dueDate: '2025-02-21', freeField: sandboxFreeField(42) },
    { bankCode: '237', amountCents: 99_999_999_99, dueDate: '2025-02-22', freeField: sandboxFreeField(99_999_999_999) },
    { bankCode: '104', amountCents: 12_345, dueDate: '2026-03-15', freeField: '1234567890123456789012345' },
  ];
  for (const input of cases) {
    const { barcode, digitableLine } = buildBoleto(input);
    assert.match(barcode, /^\d{44}$/);
    assert.match(digitableLine, /^\d{47}$/);
    assert.equal(barcode.slice(0, 3), input.bankCode);
    assert.equal(barcode[3], '9');
    assert.equal(barcode.slice(5, 9), dueDateFactor(input.dueDate));
    assert.equal(barcode.slice(9, 19), String(input.amountCents).padStart(10, '0'));
    assert.equal(barcode.slice(19), input.freeField);
    assert.equal(Number(barcode[4]), mod11Barcode(barcode.slice(0, 4) + barcode.slice(5)));

    assert.equal(digitableLineToBarcode(digitableLine), barcode);
    assert.deepEqual(validateDigitableLine(digitableLine), { valid: true });
    const printed = formatDigitableLine(digitableLine);
    assert.match(printed, /^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    assert.equal(digitsOf(printed), digitableLine);
    assert.equal(digitableLineToBarcode(printed), barcode);
  }
});

test('amounts 1, 500 and 9 999 999 999 centavos fill the 10-digit amount field', () => {
  const expected: Array<[number, string]> = [
    [1, '0000000001'],
    [500, '0000000500'],
    [99_999_999_99, '9999999999'],
  ];
  for (const [amountCents, field] of expected) {
    const { barcode, digitableLine } = buildBoleto({ bankCode: '341', amountCents, dueDate: '2026-01-01', freeField: sandboxFreeField(7) });
    assert.equal(barcode.slice(9, 19), field);
    assert.equal(digitableLine.slice(33), '1313' + field); // field 5 = factor + amount
  }
  for (const amountCents of [0, -1, 99_999_999_99 + 1, 1.5, Number.NaN]) {
    assert.throws(
      () => buildBoleto({ bankCode: '341', amountCents, dueDate: '2026-01-01', freeField: sandboxFreeField(7) }),
      RangeError,
      String(amountCents),
    );
  }
});

test('buildBoleto rejects a malformed bank code, free field or due date', () => {
  const ok = { bankCode: '341', amountCents: 100, dueDate: '2026-01-01', freeField: sandboxFreeField(1) };
  assert.throws(() => buildBoleto({ ...ok, bankCode: '34' }), RangeError);
  assert.throws(() => buildBoleto({ ...ok, bankCode: '34a' }), RangeError);
  assert.throws(() => buildBoleto({ ...ok, freeField: ok.freeField.slice(1) }), RangeError);
  assert.throws(() => buildBoleto({ ...ok, dueDate: '2000-07-02' }), RangeError);
});

/** Which check catches a change at each position of the 47-digit line. */
function expectedReason(position: number): RegExp {
  if (position < 10) return /field 1/;
  if (position < 21) return /field 2/;
  if (position < 32) return /field 3/;
  return /general/; // field 4 (the DV itself) and field 5
}

test('validation rejects every one-digit change in every field', () => {
  // Exhaustive (47 positions x 9 other digits). Mod 10 catches any single
  // substitution in fields 1-3; mod 11 catches any in fields 4-5 as long as the
  // general DV is not 1 (see the next test), so these lines all have DV != 1.
  const lines = [
    ...FIXTURES.map((fx) => digitsOf(fx.line)).filter((line) => line[32] !== '1'),
    buildBoleto({ bankCode: '341', amountCents: 500, dueDate: '2026-01-01', freeField: sandboxFreeField(123) }).digitableLine,
  ];
  assert.ok(lines.length >= 6);
  for (const line of lines) {
    assert.notEqual(line[32], '1', line);
    for (let i = 0; i < 47; i++) {
      for (let digit = 0; digit <= 9; digit++) {
        if (String(digit) === line[i]) continue;
        const changed = line.slice(0, i) + digit + line.slice(i + 1);
        const result = validateDigitableLine(changed);
        assert.equal(result.valid, false, `${changed} (position ${i})`);
        assert.match(result.reason ?? '', expectedReason(i), `${changed} (position ${i})`);
      }
    }
  }
});

test('a field-5 typo is refused unless it keeps the general DV, which at most two digits per position can', () => {
  // Field 5 (due factor and amount) has no check digit of its own: only the
  // general DV guards it. A changed digit there is refused exactly when the
  // changed barcode's DV differs from the line's. The ten digits of one
  // position give ten different remainders mod 11 (weights 2..9 are prime to
  // 11), so only the remainders that share the line's DV let a typo through:
  // for DV 1 those are 0, 1 and 10 (FEBRABAN folds 0 and 1 into 1), so at most
  // two digits per position (brcobranca 2008, published, has DV 1).
  const line = digitsOf('34191.75009 25828.170818 05367.890000 1 37700000013500');
  for (let i = 33; i < 47; i++) {
    let accepted = 0;
    for (let digit = 0; digit <= 9; digit++) {
      if (String(digit) === line[i]) continue;
      const changed = line.slice(0, i) + digit + line.slice(i + 1);
      const barcode = digitableLineToBarcode(changed);
      const keepsDv = mod11Barcode(barcode.slice(0, 4) + barcode.slice(5)) === Number(barcode[4]);
      assert.equal(validateDigitableLine(changed).valid, keepsDv, `${changed} (position ${i})`);
      if (keepsDv) accepted++;
    }
    assert.ok(accepted <= 2, `position ${i}: ${accepted} of 9 typos keep the DV`);
  }
});

test('validateDigitableLine reports malformed input instead of throwing', () => {
  for (const bad of ['', '123', '3419109008000157102963013280000194395000000298', '3419109008000157102963013280000194395000000298x']) {
    const result = validateDigitableLine(bad);
    assert.equal(result.valid, false);
    assert.match(result.reason ?? '', /47 digits/);
  }
});

test('digitableLineToBarcode and formatDigitableLine throw on malformed input', () => {
  assert.throws(() => digitableLineToBarcode('1'.repeat(46)), RangeError);
  assert.throws(() => digitableLineToBarcode('1'.repeat(48)), RangeError);
  assert.throws(() => formatDigitableLine('1'.repeat(44)), RangeError);
});

test('sandbox free field layout: agency 0001, wallet 09, our number (11), account 1234567, 0', () => {
  assert.equal(sandboxFreeField(1), '0001' + '09' + '00000000001' + '1234567' + '0');
  assert.equal(sandboxFreeField(99_999_999_999), '0001' + '09' + '99999999999' + '1234567' + '0');
  assert.equal(sandboxFreeField(123_456).length, 25);
  for (const bad of [0, -1, 100_000_000_000, 1.5, Number.NaN]) {
    assert.throws(() => sandboxFreeField(bad), RangeError, String(bad));
  }
});
