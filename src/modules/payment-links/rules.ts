/**
 * The pure rules of payment links: what a valid link is beyond its schema,
 * its status at an instant, and whether it takes one more payment. No clock,
 * no I/O: the time and the counts are passed in.
 */
import type { ErrorDetail } from '../../lib/domain-error.js';
import { DomainError } from '../../lib/domain-error.js';
import { ERRORS } from '../../lib/i18n/messages/errors.js';
import { PROBLEMS } from '../../lib/i18n/messages/problems.js';
import type { Text } from '../../lib/i18n/text.js';
import { BOLETO_MIN_CENTS } from '../payment-intents/index.js';
import type { CreateLinkInput, LinkStatus } from './schemas.js';

/** What the status of a link is computed from. */
export interface LinkState {
  canceledAt: Date | null;
  expiresAt: Date | null;
  maxPayments: number | null;
}

export function validateLink(input: CreateLinkInput, now: Date): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const card = input.paymentMethods.includes('CREDIT_CARD');
  if (!card && input.maxInstallments !== undefined && input.maxInstallments !== 1) {
    problems.push({ field: 'maxInstallments', message: PROBLEMS.linkInstallments });
  }
  if (input.paymentMethods.includes('BOLETO') && input.amountCents < BOLETO_MIN_CENTS) {
    problems.push({ field: 'amountCents', message: PROBLEMS.linkBoletoMinimum({ limit: BOLETO_MIN_CENTS }) });
  }
  if (input.expiresAt !== undefined && !(new Date(input.expiresAt).getTime() > now.getTime())) {
    problems.push({ field: 'expiresAt', message: PROBLEMS.future });
  }
  return problems;
}

/**
 * The status at `now`, derived at every read (as an intent's EXPIRED is):
 * canceled wins, then expired, then COMPLETED once `maxPayments` sales are PAID.
 */
export function linkStatus(link: LinkState, paidCount: number, now: Date): LinkStatus {
  if (link.canceledAt) return 'CANCELED';
  if (link.expiresAt && now.getTime() >= link.expiresAt.getTime()) return 'EXPIRED';
  if (link.maxPayments !== null && paidCount >= link.maxPayments) return 'COMPLETED';
  return 'ACTIVE';
}

const UNAVAILABLE: Record<Exclude<LinkStatus, 'ACTIVE'>, Text> = {
  EXPIRED: ERRORS.PAYMENT_LINK_UNAVAILABLE.expired,
  CANCELED: ERRORS.PAYMENT_LINK_UNAVAILABLE.canceled,
  COMPLETED: ERRORS.PAYMENT_LINK_UNAVAILABLE.completed,
};

const linkUnavailable = (status: Exclude<LinkStatus, 'ACTIVE'>): DomainError =>
  new DomainError('PAYMENT_LINK_UNAVAILABLE', UNAVAILABLE[status]);

/**
 * Whether one more payment may start: the link must be ACTIVE and, with
 * `maxPayments`, have a free slot. `heldSlots` counts PAID sales, PENDING ones
 * still payable and confirmations under way; a failed, canceled or expired one
 * holds none.
 */
export function slotRefusal(link: LinkState, paidCount: number, heldSlots: number, now: Date): DomainError | undefined {
  const status = linkStatus(link, paidCount, now);
  if (status !== 'ACTIVE') return linkUnavailable(status);
  if (link.maxPayments !== null && heldSlots >= link.maxPayments) {
    return new DomainError('PAYMENT_LINK_UNAVAILABLE', ERRORS.PAYMENT_LINK_UNAVAILABLE.busy);
  }
  return undefined;
}
