/**
 * Card tickets: what authorizes a browser to tokenize a card for one intent.
 * A ticket is a JWT signed (HS256) with INTERNAL_KEY, which the API (issuer)
 * and the vault (verifier) share; it names the intent and the company and
 * expires with the intent, so no ticket outlives the intent it was made for.
 *
 * Signed and checked with node:crypto's HMAC rather than jose: jose takes the
 * key through WebCrypto, whose import and asynchronous job cost more CPU than
 * the HMAC itself on tokenize's hot path. The format is plain RFC 7519, the
 * one jose made before (tickets issued then still verify); tickets.test.ts
 * checks it against jose both ways.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { compactParts, decodeJsonObject } from './compact-serialization.js';

const AUDIENCE = 'svc-vault/tokenize';
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'svc-ticket' })).toString('base64url');

export interface TicketClaims {
  intentId: string;
  companyId: string;
  expiresAt: Date;
}

export type TicketCheck = { ok: true; claims: TicketClaims } | { ok: false; reason: 'expired' | 'invalid' };

const mac = (key: Buffer, signingInput: string): Buffer => createHmac('sha256', key).update(signingInput).digest();

export function signTicket(key: Buffer, claims: TicketClaims): string {
  const payload = { cmp: claims.companyId, sub: claims.intentId, aud: AUDIENCE, exp: Math.floor(claims.expiresAt.getTime() / 1000) };
  const signingInput = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${signingInput}.${mac(key, signingInput).toString('base64url')}`;
}

/** Valid when the HMAC matches, the header says HS256 (no critical extensions), the audience is the vault's and `exp` is after `now`. */
export function verifyTicket(key: Buffer, ticket: string, now: Date): TicketCheck {
  const invalid: TicketCheck = { ok: false, reason: 'invalid' };
  const parts = compactParts(ticket, 3);
  if (!parts) return invalid;
  const [header = '', body = '', signature = ''] = parts;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, `${header}.${body}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
  const h = decodeJsonObject(header);
  const payload = decodeJsonObject(body);
  if (h?.alg !== 'HS256' || h.crit !== undefined || !payload) return invalid;
  const { sub, cmp, exp, aud } = payload;
  const audienceOk = aud === AUDIENCE || (Array.isArray(aud) && aud.includes(AUDIENCE));
  if (!audienceOk || typeof sub !== 'string' || typeof cmp !== 'string' || typeof exp !== 'number' || !Number.isFinite(exp)) return invalid;
  // As RFC 7519 (and jose before): expired once the current second reaches `exp`.
  if (exp <= Math.floor(now.getTime() / 1000)) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { intentId: sub, companyId: cmp, expiresAt: new Date(exp * 1000) } };
}
