/**
 * Card tickets: what authorizes a browser to tokenize a card for one intent.
 * A ticket is a JWT signed (HS256) with INTERNAL_KEY, which the API (issuer)
 * and the vault (verifier) share; it names the intent and the company and
 * expires with the intent, so no ticket outlives the intent it was made for.
 */
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';

const AUDIENCE = 'svc-vault/tokenize';

export interface TicketClaims {
  intentId: string;
  companyId: string;
  expiresAt: Date;
}

export type TicketCheck = { ok: true; claims: TicketClaims } | { ok: false; reason: 'expired' | 'invalid' };

export async function signTicket(key: Buffer, claims: TicketClaims): Promise<string> {
  return new SignJWT({ cmp: claims.companyId })
    .setProtectedHeader({ alg: 'HS256', typ: 'svc-ticket' })
    .setSubject(claims.intentId)
    .setAudience(AUDIENCE)
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .sign(key);
}

export async function verifyTicket(key: Buffer, ticket: string, now: Date): Promise<TicketCheck> {
  try {
    const { payload } = await jwtVerify(ticket, key, { audience: AUDIENCE, algorithms: ['HS256'], currentDate: now, clockTolerance: 0 });
    if (typeof payload.sub !== 'string' || typeof payload.cmp !== 'string' || typeof payload.exp !== 'number') return { ok: false, reason: 'invalid' };
    return { ok: true, claims: { intentId: payload.sub, companyId: payload.cmp, expiresAt: new Date(payload.exp * 1000) } };
  } catch (err) {
    return { ok: false, reason: err instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}
