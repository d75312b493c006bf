/**
 * The device cookie (OWASP's "device cookies" against online guessing): after
 * a whole sign-in, the browser keeps an HMAC of the e-mail under a key derived
 * from INTERNAL_KEY. A later sign-in of that e-mail presenting it is a person
 * signing in where they did before, and its password check waits in the
 * hashing gate's `device` lane, ahead of every other (password.ts), so a flood
 * of sign-ins from many addresses, on however many e-mails, cannot keep that
 * person waiting behind it. The cookie grants nothing else: the password (and
 * the code) are checked as always, and it tells nothing about other e-mails.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** A year: a person who signs in once a month keeps their place. */
export const DEVICE_COOKIE_SECONDS = 365 * 86_400;

export const deviceCookieName = (secure: boolean): string => (secure ? '__Host-svc_device' : 'svc_device');

export class DeviceCookies {
  private readonly key: Buffer;

  constructor(internalKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', internalKey, Buffer.alloc(0), 'svc-dashboard/device-cookie', 32));
  }

  /** The cookie's value for `email` (normalized): 192 bits of the HMAC, base64url. */
  issue(email: string): string {
    return createHmac('sha256', this.key).update(email).digest().subarray(0, 24).toString('base64url');
  }

  /** Whether `value` is the cookie issued for `email` (normalized). */
  recognizes(email: string, value: string | undefined): boolean {
    if (!value || value.length !== 32) return false;
    const expected = Buffer.from(this.issue(email));
    const given = Buffer.from(value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
