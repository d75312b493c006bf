/** The payment intent as the API shows it; keys in a fixed order so equal states give equal bytes. */
import type { PaymentIntentRow } from '../../db/types.js';
import type { TransactionView } from '../transactions/index.js';
import { effectiveStatus } from './rules.js';
import type { CardTokenization, IntentView } from './schemas.js';

export function intentView(row: PaymentIntentRow, now: Date, transaction?: TransactionView, cardTokenization?: CardTokenization): IntentView {
  return {
    id: row.id,
    status: effectiveStatus(row, now),
    amountCents: row.amount_cents,
    paymentMethod: row.payment_method as IntentView['paymentMethod'],
    installments: row.installments,
    referenceId: row.reference_id,
    ...(row.description !== null ? { description: row.description } : {}),
    buyer: row.buyer as IntentView['buyer'],
    ...(row.split_rules ? { splitRules: row.split_rules as IntentView['splitRules'] } : {}),
    metadata: row.metadata ?? {},
    ...(row.payment_link_id ? { paymentLinkId: row.payment_link_id } : {}),
    ...(row.transaction_id ? { transactionId: row.transaction_id } : {}),
    ...(transaction ? { transaction } : {}),
    ...(cardTokenization ? { cardTokenization } : {}),
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
