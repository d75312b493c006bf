/**
 * Calendar dates (`YYYY-MM-DD`) on the São Paulo calendar. Dates are plain
 * strings; arithmetic on them goes through UTC noon so no time zone or DST
 * rule can move a date by one.
 */
const formatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * The last minute asked and its date: every sale and card asks, and Intl's
 * formatting costs microseconds each time. A São Paulo date changes only on a
 * whole minute (the zone's offsets are whole minutes), so one minute has one date.
 */
let cachedMinute = Number.NaN;
let cachedDate = '';

export function saoPauloDate(at: Date): string {
  const minute = Math.floor(at.getTime() / 60_000);
  if (minute !== cachedMinute) {
    cachedDate = formatter.format(at); // en-CA formats as YYYY-MM-DD
    cachedMinute = minute;
  }
  return cachedDate;
}

export function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T12:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}

export function isValidDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const t = Date.parse(`${date}T12:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === date;
}

const offsetFormatter = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', timeZoneName: 'longOffset' });

/** Minutes east of UTC in São Paulo at an instant (-180 today; read from the zone database, not assumed). */
export function saoPauloOffsetMinutes(at: Date): number {
  const name = offsetFormatter.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** The instant a São Paulo calendar day starts (00:00 local). */
export function startOfSaoPauloDay(date: string): Date {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  return new Date(utcMidnight - saoPauloOffsetMinutes(new Date(utcMidnight + 12 * 3_600_000)) * 60_000);
}
