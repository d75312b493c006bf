/**
 * Card tickets: what authorizes a browser to tokenize a card for one intent.
 * A ticket is a JWT signed (HS256) with INTERNAL_KEY, which the API (issuer)
 * and the vault (verifier) share; it names the intent and the company and
 * expires with the intent, so no ticket outlives the intent it was made for.
 */
import { webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors, type CryptoKey } from 'jose';

const AUDIENCE = 'svc-vault/tokenize';

export interface TicketClaims {
  intentId: string;
  companyId: string;
  expiresAt: Date;
}

export type TicketCheck = { ok: true; claims: TicketClaims } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * The HMAC key of each INTERNAL_KEY buffer, imported into WebCrypto once.
 * Given the raw bytes, jose imports them again on every sign and verify, which
 * cost more CPU than the HMAC itself on tokenize's hot path. Keyed by the
 * Buffer object (the one the runtime holds for its whole life), so a dropped
 * key takes its entry with it.
 */
const hmacKeys = new WeakMap<Buffer, Promise<CryptoKey>>();

function hmacKey(key: Buffer): Promise<CryptoKey> {
  let imported = hmacKeys.get(key);
  if (!imported) {
    // Not extractable; 'sign' for the API's signTicket, 'verify' for the vault. jose checks the key is HMAC with SHA-256 for HS256.
    imported = webcrypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']) as Promise<CryptoKey>;
    hmacKeys.set(key, imported);
  }
  return imported;
}

export async function signTicket(key: Buffer, claims: TicketClaims): Promise<string> {
  return new SignJWT({ cmp: claims.companyId })
    .setProtectedHeader({ alg: 'HS256', typ: 'svc-ticket' })
    .setSubject(claims.intentId)
    .setAudience(AUDIENCE)
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .sign(await hmacKey(key));
}

export async function verifyTicket(key: Buffer, ticket: string, now: Date): Promise<TicketCheck> {
  try {
    const { payload } = await jwtVerify(ticket, await hmacKey(key), { audience: AUDIENCE, algorithms: ['HS256'], currentDate: now, clockTolerance: 0 });
    if (typeof payload.sub !== 'string' || typeof payload.cmp !== 'string' || typeof payload.exp !== 'number') return { ok: false, reason: 'invalid' };
    return { ok: true, claims: { intentId: payload.sub, companyId: payload.cmp, expiresAt: new Date(payload.exp * 1000) } };
  } catch (err) {
    return { ok: false, reason: err instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}
