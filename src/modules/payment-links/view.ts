/** The payment link as the API shows it; keys in a fixed order so equal states give equal bytes. */
import type { PaymentLinkRow } from '../../db/types.js';
import { linkStatus, type LinkState } from './rules.js';
import type { LinkView } from './schemas.js';

export const linkState = (row: PaymentLinkRow): LinkState => ({ canceledAt: row.canceled_at, expiresAt: row.expires_at, maxPayments: row.max_payments });

/** `publicBase`: the API's public URL, under which the hosted page is served. */
export function linkView(row: PaymentLinkRow, paidCount: number, now: Date, publicBase: string): LinkView {
  return {
    id: row.id,
    status: linkStatus(linkState(row), paidCount, now),
    url: `${publicBase}/pay/${row.id}`,
    amountCents: row.amount_cents,
    description: row.description,
    paymentMethods: row.payment_methods as LinkView['paymentMethods'],
    maxInstallments: row.max_installments,
    ...(row.split_rules ? { splitRules: row.split_rules as LinkView['splitRules'] } : {}),
    ...(row.expires_at ? { expiresAt: row.expires_at.toISOString() } : {}),
    ...(row.max_payments !== null ? { maxPayments: row.max_payments } : {}),
    paymentsCount: paidCount,
    metadata: row.metadata ?? {},
    ...(row.reference_id !== null ? { referenceId: row.reference_id } : {}),
    ...(row.canceled_at ? { canceledAt: row.canceled_at.toISOString() } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
