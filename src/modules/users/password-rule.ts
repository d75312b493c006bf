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
