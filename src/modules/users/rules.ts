/**
 * The dashboard's identity rules: timeouts, the lockout, what a password and
 * an e-mail must be, and the opaque secrets people hold (session ids,
 * invitation tokens, recovery codes), of which only SHA-256 hashes are kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import { validationError, type DomainError } from '../../lib/domain-error.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { isCommonPassword } from './common-passwords.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, isPasswordTooShort, isRepetitivePassword } from './password-rule.js';
import { ROLES, type Role } from './roles.js';

const MINUTE = 60_000;
export const SESSION_IDLE_MS = 30 * MINUTE;
export const SESSION_ABSOLUTE_MS = 12 * 60 * MINUTE;
/** A half-open session (password right, code not yet given) lasts this long. */
export const TOTP_STAGE_MS = 5 * MINUTE;
/** last_seen_at is written at most this often per session: a read per request, not a write. */
export const SESSION_TOUCH_MS = MINUTE;
export const INVITATION_MS = 72 * 60 * MINUTE;

/** Wrong passwords (sign-ins and re-checks inside a session) of one e-mail within the window that lock it. */
export const LOCKOUT_FAILURES = 10;
/** Wrong two-step codes of one user within the window that end the half-open session and lock the e-mail. */
export const LOCKOUT_CODE_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * MINUTE;
export const LOCKOUT_MS = 15 * MINUTE;

export const RECOVERY_CODES = 10;
export const TOTP_ISSUER = 'Painel';

/** Cut e-mail addresses: long enough for any real one (RFC 5321: 254). */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 120;

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(email: string, field = 'email'): DomainError | undefined {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email) ? undefined : validationError(field, PROBLEMS.email);
}

/** A local part shorter than this is part of too many passphrases to refuse them (`ana` in `banana`). */
const MIN_LOCAL_PART = 4;

/** Whether `password` holds `email` or its local part, case, spaces and separators (`.`, `_`, `-`, `+`) ignored. */
function holdsEmail(password: string, email: string): boolean {
  const fold = (text: string) => text.normalize('NFKC').toLowerCase().replace(/[\s._+-]/g, '');
  const typed = fold(password);
  const local = fold(email.slice(0, Math.max(0, email.lastIndexOf('@'))));
  return typed.includes(fold(email)) || (local.length >= MIN_LOCAL_PART && typed.includes(local));
}

/**
 * A new password: 12 to 256 characters, not trivially repetitive, not
 * holding the user's e-mail (`email`, when known) and not one of the common
 * passwords (common-passwords.ts). The refusal names `field`.
 */
export function checkPassword(password: string, field = 'password', email?: string): DomainError | undefined {
  if (isPasswordTooShort(password)) return validationError(field, PROBLEMS.minLength({ limit: MIN_PASSWORD_LENGTH }));
  if (password.length > MAX_PASSWORD_LENGTH) return validationError(field, PROBLEMS.maxLength({ limit: MAX_PASSWORD_LENGTH }));
  if (isRepetitivePassword(password)) return validationError(field, PROBLEMS.passwordRepetitive);
  if (email && holdsEmail(password, email)) return validationError(field, PROBLEMS.passwordHoldsEmail);
  if (isCommonPassword(password)) return validationError(field, PROBLEMS.passwordCommon);
  return undefined;
}

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** 32 random bytes, base64url: a session id, an invitation token, a CSRF token. */
export const opaqueToken = (): string => randomBytes(32).toString('base64url');

const CODE_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A recovery code: 16 characters (80 bits) in groups of four, read aloud or typed from paper. */
export function newRecoveryCode(): string {
  const chars = Array.from(randomBytes(16), (b) => CODE_ALPHABET[b & 31]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** How a typed recovery code is compared: case, spaces and dashes ignored. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');
