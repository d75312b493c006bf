/**
 * A status as a coloured pill with its word (the colour is never the only
 * sign), a payment method's name, and the words for what the service names
 * with enums: a sale's refunds, event types, audit actions, installments. No
 * page shows a raw enum; an unknown one (a newer server) falls back to it.
 */
import type { AuditAction } from '../../../src/modules/audit/actions.js';
import { splitInstallments } from '../../../src/modules/split/installments.js';
import { money } from '../format.js';
import { useI18n } from '../i18n.js';
import { TEXTS, type TextKey } from '../texts.js';

const isKnown = (key: string): key is TextKey => Object.prototype.hasOwnProperty.call(TEXTS, key);

export function Status({ value }: { value: string }) {
  const { t } = useI18n();
  const key = `status_${value}`;
  return <span class={`pill pill-${value.toLowerCase().replace(/_/g, '-')}`}>{isKnown(key) ? t(key) : value}</span>;
}

export function MethodName({ value }: { value: string }) {
  const { t } = useI18n();
  const key = `method_${value}`;
  return <>{isKnown(key) ? t(key) : value}</>;
}

/** What the money of a sale became, as the list and the sale show it (the dashboard's REFUND_STATES, the same order of precedence). */
function saleState(trx: { status: string; amountCents: number; refundedCents: number; chargedBackCents?: number }): string {
  if ((trx.chargedBackCents ?? 0) > 0) return 'CHARGED_BACK';
  if (trx.refundedCents > 0) return trx.refundedCents >= trx.amountCents ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  return trx.status;
}

export function SaleStatus({ trx }: { trx: Parameters<typeof saleState>[0] }) {
  return <Status value={saleState(trx)} />;
}

/** An event type's words (`transaction.paid` → Pagamento confirmado). */
export function eventName(type: string, t: ReturnType<typeof useI18n>['t']): string {
  const key = `event_${type}`;
  return isKnown(key) ? t(key) : type;
}

/** `session.signed_in` → `session_signed_in`: an audit action as its text's key. */
type Underscored<S extends string> = S extends `${infer A}.${infer B}` ? `${A}_${Underscored<B>}` : S;
// Every audit action has its words: an action added without them fails the typecheck here.
const AUDIT_WORDS: Record<`audit_${Underscored<AuditAction>}`, unknown> = TEXTS;
void AUDIT_WORDS;

/** An audit action's words (`session.signed_in` → Entrou). */
export function auditActionName(action: string, t: ReturnType<typeof useI18n>['t']): string {
  const key = `audit_${action.replace(/\./g, '_')}`;
  return isKnown(key) ? t(key) : action;
}

/**
 * The installments as charged: the split module's rule (the remainder
 * centavos on the first), so R$ 49,90 in 3 reads "1x de R$ 16,64 + 2x de R$ 16,63".
 */
export function installmentsText(amountCents: number, installments: number, t: ReturnType<typeof useI18n>['t'], locale: ReturnType<typeof useI18n>['locale']): string {
  const parts = splitInstallments(amountCents, installments);
  const first = parts[0]!;
  const each = parts[parts.length - 1]!;
  if (first === each) return t('installmentsEqual', { n: installments, each: money(each, locale) });
  return t('installmentsFirstMore', { first: money(first, locale), rest: installments - 1, each: money(each, locale) });
}
