/**
 * The hosted page's CSRF token: issued into the page when it is served, sent
 * back in `X-Pay-Token` on every request the page makes, bound to its link
 * and its issue time by an HMAC under a key derived from INTERNAL_KEY (no
 * state to store, valid on every API process). Together with the Origin check
 * of the routes, another site can neither forge nor replay a page's request.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** A page left open longer than this must be reloaded to pay. */
const PAGE_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;

export class PageTokens {
  private readonly key: Buffer;

  constructor(internalKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', internalKey, Buffer.alloc(0), 'svc-pay-page/csrf', 32));
  }

  private mac(linkId: string, issuedAt: string): Buffer {
    return createHmac('sha256', this.key).update(`${linkId}.${issuedAt}`).digest();
  }

  issue(linkId: string, now: Date): string {
    const issuedAt = now.getTime().toString(36);
    return `${issuedAt}.${this.mac(linkId, issuedAt).toString('base64url')}`;
  }

  /** Whether `token` was issued for this link within the TTL. */
  check(linkId: string, token: string | undefined, now: Date): boolean {
    const match = token ? /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token) : null;
    if (!match) return false;
    const age = now.getTime() - parseInt(match[1]!, 36);
    if (!(age >= -60_000 && age <= PAGE_TOKEN_TTL_MS)) return false;
    return timingSafeEqual(Buffer.from(match[2]!, 'base64url'), this.mac(linkId, match[1]!));
  }
}
