/**
 * The payment-link slot guard: the intents module calls it (ClaimGuard) in
 * the database transaction that claims the confirmation of an intent made
 * through a link, whoever confirms it (the hosted page or the seller's key).
 *
 * "Paid twice at once, one wins": the link's row is locked (FOR UPDATE) before
 * the slots are counted, so concurrent confirmations of one link count one
 * after the other; the winner's claim (confirm_started_at) is in the count of
 * the next, which is refused with 409 PAYMENT_LINK_UNAVAILABLE before anything
 * is charged. A slot is held by a PAID sale, a PENDING one still payable, or
 * a claimed confirmation; a failed, canceled or expired one frees it.
 */
import type { Kysely } from 'kysely';
import type { Database, PaymentLinkRow } from '../../db/types.js';
import type { DomainError } from '../../lib/domain-error.js';
import { countClaimedOfLink, type ClaimGuard } from '../payment-intents/index.js';
import { countLiveOfLink, countPaidByLink } from '../transactions/index.js';
import * as repo from './repo.js';
import { slotRefusal } from './rules.js';
import { linkState } from './view.js';

/** PAID sales of one link. */
export async function paidCountOf(ex: Kysely<Database>, link: PaymentLinkRow): Promise<number> {
  return (await countPaidByLink(ex, link.company_id, [link.id])).get(link.id) ?? 0;
}

/** Whether `link` (locked by the caller when it decides) takes one more payment now. */
export async function refusalOf(ex: Kysely<Database>, link: PaymentLinkRow, now: Date): Promise<DomainError | undefined> {
  const paid = await paidCountOf(ex, link);
  const held = (await countLiveOfLink(ex, link.id, now)) + (await countClaimedOfLink(ex, link.id));
  return slotRefusal(linkState(link), paid, held, now);
}

export const linkSlotGuard: ClaimGuard = async (trx, intent, now) => {
  const link = await repo.findLink(trx, intent.company_id, intent.payment_link_id!, true);
  // The intent names a link of its company: it was created through that link's page.
  if (!link) throw new Error(`payment link ${intent.payment_link_id} of intent ${intent.id} is missing`);
  return refusalOf(trx, link, now);
};
