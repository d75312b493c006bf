/**
 * Pure rules of the payment intent: validation beyond the JSON schema, the
 * state machine, and the payment window of the transaction it becomes. No
 * clock and no I/O here: `now` is passed in.
 */
import type { PaymentIntentRow } from '../../db/types.js';
import { DomainError, type ErrorDetail } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import { addDays, daysBetween, isValidDate, saoPauloDate, startOfSaoPauloDay } from '../../lib/sao-paulo-date.js';
import { isValidTaxId } from '../../lib/tax-id.js';
import type { CreateIntentInput, IntentStatus } from './schemas.js';

/** How long an intent waits for its confirmation; a card ticket expires with it. */
export const INTENT_LIFETIME_MS = 5 * 60_000;

/**
 * The statuses of an intent not yet confirmed: the only ones that expire, can
 * be claimed by a confirm, and are looked at by the sweepers (repo.ts). The
 * partial indexes of migration 001 list the same two values.
 */
export const UNCONFIRMED_STATUSES = ['REQUIRES_TOKEN', 'REQUIRES_CONFIRMATION'] as const satisfies readonly IntentStatus[];

const isUnconfirmed = (status: string): boolean => (UNCONFIRMED_STATUSES as readonly string[]).includes(status);
/** A boleto is refused below R$ 5,00. */
export const BOLETO_MIN_CENTS = 500;
const BOLETO_DEFAULT_DAYS = 3;
/** A boleto stays payable until the end of its due date plus this many days. */
const BOLETO_GRACE_DAYS = 3;
export const BOLETO_MAX_DAYS_AHEAD = 3650;
export const PIX_DEFAULT_EXPIRES_SECONDS = 3600;

/** Field checks the schema cannot express; every problem is reported, not just the first. */
export function validateCreate(input: CreateIntentInput, now: Date): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const method = input.paymentMethod;
  if (!isValidTaxId(input.buyer.document)) problems.push({ field: 'buyer.document', message: PROBLEMS.taxIdCheckDigits });
  if (input.confirm === true && method === 'CREDIT_CARD') {
    problems.push({ field: 'confirm', message: PROBLEMS.confirmWithoutCard });
  }
  if ((method === 'CREDIT_CARD' || method === 'BOLETO') && !input.buyer.email) {
    problems.push({ field: 'buyer.email', message: PROBLEMS.requiredFor({ method }) });
  }
  if (method === 'BOLETO' && !input.buyer.address) problems.push({ field: 'buyer.address', message: PROBLEMS.requiredFor({ method }) });
  if (method === 'BOLETO' && input.amountCents < BOLETO_MIN_CENTS) {
    problems.push({ field: 'amountCents', message: PROBLEMS.boletoMinimum({ limit: BOLETO_MIN_CENTS }) });
  }
  if (method !== 'CREDIT_CARD' && input.installments !== undefined && input.installments !== 1) {
    problems.push({ field: 'installments', message: PROBLEMS.oneInstallment });
  }
  if (input.pix && method !== 'PIX') problems.push({ field: 'pix', message: PROBLEMS.onlyWith({ method: 'PIX' }) });
  if (input.boleto && method !== 'BOLETO') problems.push({ field: 'boleto', message: PROBLEMS.onlyWith({ method: 'BOLETO' }) });
  if (input.boleto) {
    const due = input.boleto.dueDate;
    const today = saoPauloDate(now);
    if (!isValidDate(due)) problems.push({ field: 'boleto.dueDate', message: PROBLEMS.date });
    else if (due < today) problems.push({ field: 'boleto.dueDate', message: PROBLEMS.past });
    else if (daysBetween(today, due) > BOLETO_MAX_DAYS_AHEAD) {
      problems.push({ field: 'boleto.dueDate', message: PROBLEMS.daysAhead({ limit: BOLETO_MAX_DAYS_AHEAD }) });
    }
  }
  return problems;
}

export function boletoDueDate(input: Pick<CreateIntentInput, 'boleto'>, now: Date): string {
  return input.boleto?.dueDate ?? addDays(saoPauloDate(now), BOLETO_DEFAULT_DAYS);
}

/** Unconfirmed intents are EXPIRED from the instant their lifetime ends, whether or not a sweeper ran. */
export function effectiveStatus(intent: Pick<PaymentIntentRow, 'status' | 'expires_at' | 'confirm_started_at'>, now: Date): IntentStatus {
  const status = intent.status as IntentStatus;
  if (isUnconfirmed(status) && !intent.confirm_started_at && now.getTime() >= intent.expires_at.getTime()) return 'EXPIRED';
  return status;
}

/** Why an intent in `status` cannot be confirmed or canceled; undefined when it can. */
export function blockedMove(status: IntentStatus): DomainError | undefined {
  if (status === 'EXPIRED') return new DomainError('INTENT_EXPIRED', ERRORS.INTENT_EXPIRED.expired);
  if (status === 'CONFIRMED' || status === 'FAILED' || status === 'CANCELED') {
    return new DomainError('INTENT_ALREADY_PROCESSED', ERRORS.INTENT_ALREADY_PROCESSED.already({ status }));
  }
  return undefined;
}

type ClaimView = Pick<PaymentIntentRow, 'status' | 'expires_at' | 'confirm_started_at' | 'confirm_key' | 'payment_method'>;

/** A refusal, and whether the intent was found expired (the caller persists EXPIRED, then answers the error). */
export type Refusal = { kind: 'refuse'; error: DomainError; persistExpired: boolean };

function refusal(row: ClaimView, status: IntentStatus, error: DomainError): Refusal {
  return { kind: 'refuse', error, persistExpired: status === 'EXPIRED' && row.status !== 'EXPIRED' };
}

/**
 * Phase 1 of a confirm under Idempotency-Key `key`, decided on the locked row:
 * - `existing`: already CONFIRMED under this key (a retry after recovery): answer its transaction;
 * - `resume`: claimed under this key by a request that died: resume at phase 2 (the acquirer answers from its record);
 * - `claim`: claim it now (set confirm_started_at and confirm_key);
 * - `refuse`: being confirmed under another key, expired, final, or a card confirmed without a token.
 */
export type ConfirmStep = { kind: 'existing' } | { kind: 'resume' } | { kind: 'claim' } | Refusal;

export function confirmStep(row: ClaimView, now: Date, key: string, hasToken: boolean): ConfirmStep {
  if (row.status === 'CONFIRMED' && row.confirm_key === key) return { kind: 'existing' };
  const status = effectiveStatus(row, now);
  if (row.confirm_started_at && status !== 'FAILED' && row.status !== 'CONFIRMED') {
    if (row.confirm_key !== key) return refusal(row, status, new DomainError('INTENT_ALREADY_PROCESSED', ERRORS.INTENT_ALREADY_PROCESSED.beingConfirmedByAnother));
    return { kind: 'resume' };
  }
  const blocked = blockedMove(status);
  if (blocked) return refusal(row, status, blocked);
  if (row.payment_method === 'CREDIT_CARD' && !hasToken) {
    return refusal(row, status, new DomainError('TOKEN_REQUIRED', ERRORS.TOKEN_REQUIRED.card, [{ field: 'token', message: PROBLEMS.requiredFor({ method: 'CREDIT_CARD' }) }]));
  }
  return { kind: 'claim' };
}

/**
 * A cancel, decided on the locked row: an intent being confirmed can no
 * longer be canceled; a finished one (CONFIRMED, FAILED…) says which status
 * it has, not that it is "being confirmed".
 */
export function cancelStep(row: ClaimView, now: Date): { kind: 'cancel' } | Refusal {
  const status = effectiveStatus(row, now);
  const blocked = row.confirm_started_at && isUnconfirmed(status)
    ? new DomainError('INTENT_ALREADY_PROCESSED', ERRORS.INTENT_ALREADY_PROCESSED.beingConfirmed)
    : blockedMove(status);
  return blocked ? refusal(row, status, blocked) : { kind: 'cancel' };
}

/** When an unpaid transaction stops being payable: Pix at its expiry; boleto after due date + grace, São Paulo time. */
export function paymentWindowEnd(method: string, confirmedAt: Date, pixExpiresInSeconds: number | null, boletoDueDate: string | null): Date | null {
  if (method === 'PIX') return new Date(confirmedAt.getTime() + (pixExpiresInSeconds ?? PIX_DEFAULT_EXPIRES_SECONDS) * 1000);
  if (method === 'BOLETO' && boletoDueDate) return startOfSaoPauloDay(addDays(boletoDueDate, BOLETO_GRACE_DAYS + 1));
  return null;
}
