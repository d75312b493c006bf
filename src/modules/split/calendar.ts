/**
 * Business days on the São Paulo calendar, for receivable transfer dates.
 *
 * A business day is a Monday–Friday that is not a national bank holiday. The
 * table is ANBIMA's national holiday calendar ("Feriados Nacionais",
 * https://www.anbima.com.br/feriados/feriados.asp, spreadsheet
 * https://www.anbima.com.br/feriados/arqs/feriados_nacionais.xls). ANBIMA lists
 * the days on which bank reserves do not move; the Brazilian financial market
 * settles by it, and CMN Resolução 4.880/2020 makes these days non-business
 * days for financial operations. The rules below reproduce ANBIMA's 2026 and
 * 2027 rows (tests pin them). Carnaval Monday and Tuesday are on it (legally
 * an optional day off, but no interbank settlement runs); Holy Thursday is not
 * (a business day under CMN Resolução 2.516 since 2000); 20 November is,
 * from 2024 (Lei 14.759/2023). Municipal and state holidays (25 January and
 * 9 July in São Paulo) are not on it: reserves settle on them, so do we.
 */
import { addDays, isValidDate } from '../../lib/sao-paulo-date.js';

/** 20 November is a national holiday from this year on (Lei 14.759/2023). */
const CONSCIENCIA_NEGRA_FROM = 2024;

function ymd(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Easter Sunday of a Gregorian year: the anonymous Gregorian algorithm
 * (Meeus/Jones/Butcher), exact integer arithmetic, valid from 1583 on.
 */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return ymd(year, month, day);
}

const cache = new Map<number, { list: readonly string[]; set: ReadonlySet<string> }>();

function holidaysOf(year: number): { list: readonly string[]; set: ReadonlySet<string> } {
  if (!Number.isInteger(year) || year < 1583 || year > 9999) {
    throw new RangeError(`year out of range: ${year}`);
  }
  let entry = cache.get(year);
  if (!entry) {
    const easter = easterSunday(year);
    const days = [
      ymd(year, 1, 1), // Confraternização Universal
      addDays(easter, -48), // Carnaval (Monday)
      addDays(easter, -47), // Carnaval (Tuesday)
      addDays(easter, -2), // Paixão de Cristo (Good Friday)
      ymd(year, 4, 21), // Tiradentes
      ymd(year, 5, 1), // Dia do Trabalho
      addDays(easter, 60), // Corpus Christi
      ymd(year, 9, 7), // Independência do Brasil
      ymd(year, 10, 12), // Nossa Senhora Aparecida
      ymd(year, 11, 2), // Finados
      ymd(year, 11, 15), // Proclamação da República
      ymd(year, 12, 25), // Natal
    ];
    if (year >= CONSCIENCIA_NEGRA_FROM) days.push(ymd(year, 11, 20)); // Zumbi e Consciência Negra
    // A Set: Good Friday can fall on Tiradentes (2079), and a day is listed once.
    const set = new Set(days);
    entry = { list: Object.freeze([...set].sort()), set };
    cache.set(year, entry);
  }
  return entry;
}

/** The national bank holidays of a year, sorted, as `YYYY-MM-DD` (weekend ones included). */
export function nationalHolidays(year: number): string[] {
  return [...holidaysOf(year).list];
}

function assertDate(date: string): void {
  if (!isValidDate(date)) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
}

/** True for a Monday–Friday that is not a national bank holiday. */
export function isBusinessDay(date: string): boolean {
  assertDate(date);
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  if (weekday === 0 || weekday === 6) return false;
  return !holidaysOf(Number(date.slice(0, 4))).set.has(date);
}

/** The date itself when it is a business day, else the first business day after it. */
export function nextBusinessDay(date: string): string {
  assertDate(date);
  let day = date;
  // At most a handful of steps: no run of holidays and weekends is longer than 5 days.
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}
