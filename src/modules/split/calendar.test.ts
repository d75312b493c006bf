import { test } from 'node:test';
import assert from 'node:assert/strict';
import { easterSunday, isBusinessDay, nationalHolidays, nextBusinessDay } from './index.js';

test('Easter Sunday by the anonymous Gregorian algorithm', () => {
  const known: Record<number, string> = {
    1818: '1818-03-22', // earliest possible date
    1943: '1943-04-25', // latest possible date
    2000: '2000-04-23',
    2019: '2019-04-21',
    2024: '2024-03-31',
    2025: '2025-04-20',
    2026: '2026-04-05',
    2027: '2027-03-28',
    2038: '2038-04-25',
  };
  for (const [year, easter] of Object.entries(known)) assert.equal(easterSunday(Number(year)), easter);
});

test('national bank holidays of 2026 (ANBIMA)', () => {
  assert.deepEqual(nationalHolidays(2026), [
    '2026-01-01', // Confraternização Universal, Thursday
    '2026-02-16', // Carnaval, Monday (Easter 04-05 − 48)
    '2026-02-17', // Carnaval, Tuesday (Easter − 47)
    '2026-04-03', // Paixão de Cristo, Friday (Easter − 2)
    '2026-04-21', // Tiradentes, Tuesday
    '2026-05-01', // Dia do Trabalho, Friday
    '2026-06-04', // Corpus Christi, Thursday (Easter + 60)
    '2026-09-07', // Independência, Monday
    '2026-10-12', // Nossa Senhora Aparecida, Monday
    '2026-11-02', // Finados, Monday
    '2026-11-15', // Proclamação da República, Sunday
    '2026-11-20', // Zumbi e Consciência Negra, Friday
    '2026-12-25', // Natal, Friday
  ]);
});

test('national bank holidays of 2027 (ANBIMA)', () => {
  assert.deepEqual(nationalHolidays(2027), [
    '2027-01-01', // Friday
    '2027-02-08', // Carnaval, Monday (Easter 03-28 − 48)
    '2027-02-09', // Carnaval, Tuesday
    '2027-03-26', // Paixão de Cristo, Friday
    '2027-04-21', // Tiradentes, Wednesday
    '2027-05-01', // Saturday
    '2027-05-27', // Corpus Christi, Thursday
    '2027-09-07', // Tuesday
    '2027-10-12', // Tuesday
    '2027-11-02', // Tuesday
    '2027-11-15', // Monday
    '2027-11-20', // Saturday
    '2027-12-25', // Saturday
  ]);
});

test('20 November is a national holiday only from 2024 (Lei 14.759/2023)', () => {
  assert.ok(!nationalHolidays(2023).includes('2023-11-20'));
  assert.ok(isBusinessDay('2023-11-20')); // a Monday
  assert.ok(nationalHolidays(2024).includes('2024-11-20'));
  assert.ok(!isBusinessDay('2024-11-20')); // a Wednesday
});

test('weekends are not business days and move to Monday', () => {
  assert.equal(isBusinessDay('2026-03-07'), false); // Saturday
  assert.equal(isBusinessDay('2026-03-08'), false); // Sunday
  assert.equal(nextBusinessDay('2026-03-07'), '2026-03-09');
  assert.equal(nextBusinessDay('2026-03-08'), '2026-03-09');
});

test('a business day is its own next business day', () => {
  assert.equal(nextBusinessDay('2026-03-09'), '2026-03-09');
  assert.equal(nextBusinessDay('2026-02-18'), '2026-02-18'); // Ash Wednesday is a business day
  assert.ok(isBusinessDay('2026-04-02')); // Holy Thursday is a business day since 2000
});

test('a holiday followed by a weekend moves to the Monday after', () => {
  assert.equal(nextBusinessDay('2026-04-03'), '2026-04-06'); // Good Friday
  assert.equal(nextBusinessDay('2026-11-20'), '2026-11-23'); // Consciência Negra, Friday
  assert.equal(nextBusinessDay('2026-12-25'), '2026-12-28'); // Christmas, Friday
});

test('a weekend followed by holidays moves past all of them', () => {
  assert.equal(nextBusinessDay('2026-02-14'), '2026-02-18'); // Saturday, Sunday, Carnaval Monday and Tuesday
  assert.equal(nextBusinessDay('2026-09-05'), '2026-09-08'); // Saturday, Sunday, Independência Monday
  assert.equal(nextBusinessDay('2027-12-24'), '2027-12-24'); // Christmas Eve is a business day
  assert.equal(nextBusinessDay('2027-12-25'), '2027-12-27'); // Christmas on a Saturday
  assert.equal(nextBusinessDay('2026-12-31'), '2026-12-31'); // a Thursday; 2027-01-01 is the holiday
  assert.equal(nextBusinessDay('2027-01-01'), '2027-01-04'); // New Year on a Friday, across the year
});

test('São Paulo city and state holidays are business days on the national calendar', () => {
  assert.ok(isBusinessDay('2027-01-25')); // city anniversary, Monday
  assert.ok(isBusinessDay('2026-07-09')); // state holiday, Thursday
});

test('every year has 13 holidays from 2024 on, all inside the year, except when two coincide', () => {
  for (let year = 2024; year <= 2100; year++) {
    const days = nationalHolidays(year);
    // 2079: Easter is 04-23, so Good Friday is Tiradentes (04-21), one day listed once.
    assert.equal(days.length, year === 2079 ? 12 : 13, String(year));
    assert.ok(days.every((d) => d.startsWith(`${year}-`)));
  }
  assert.equal(easterSunday(2079), '2079-04-23');
});

test('malformed dates are refused', () => {
  assert.throws(() => isBusinessDay('2026-02-30'), RangeError);
  assert.throws(() => nextBusinessDay('26-01-01'), RangeError);
});
