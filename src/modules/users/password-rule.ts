/**
 * How long a dashboard password may be, in one place for the API (rules.ts,
 * schemas.ts) and the dashboard's forms (web/dashboard), which check it
 * before sending: this module imports nothing, so the browser bundle can take it.
 */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer passwords are refused: hashing cost must not grow with what a client sends. */
export const MAX_PASSWORD_LENGTH = 256;

/** Shorter than the minimum, counted in characters as a person counts them (code points, so 😀 is one, not two). */
export const isPasswordTooShort = (password: string): boolean => [...password].length < MIN_PASSWORD_LENGTH;

/** Fewer different characters than this make a password a pattern, whatever its length (`1111222233334444`). */
const MIN_DISTINCT = 5;

/** The step from one character to the next, digits going round (9 then 0 is a step of 1). */
function step(a: number, b: number): number {
  const isDigit = (c: number) => c >= 48 && c <= 57;
  if (isDigit(a) && isDigit(b)) return ((b - a + 15) % 10) - 5;
  return b - a;
}

/**
 * Trivially repetitive: one short part repeated (`aaaaaaaaaaaa`,
 * `abcabcabcabc`), fewer than 5 different characters, or a run at one small
 * step (`abcdefghijkl`, `123456789012`, `975319753197`). Case is ignored.
 */
export function isRepetitivePassword(password: string): boolean {
  const chars = [...password.toLowerCase()];
  if (new Set(chars).size < MIN_DISTINCT) return true;
  if (/^(.+?)\1+$/su.test(chars.join(''))) return true;
  const points = chars.map((c) => c.codePointAt(0)!);
  const first = step(points[0]!, points[1]!);
  return Math.abs(first) <= 2 && points.every((p, i) => i === 0 || step(points[i - 1]!, p) === first);
}
