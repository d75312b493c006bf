/**
 * A paid sale's Comprovante: what the buyer's receipt says (amount, method,
 * paid time in São Paulo, seller, buyer with the document masked, the sale's
 * id), Imprimir, and the receipt's own address (GET /pay/receipts/{trx}/{token},
 * opened without a session) to copy or send on WhatsApp. The server answers
 * 404 for a sale not paid.
 */
import { get } from '../api.js';
import { CopyField } from '../components/copy-field.js';
import { ErrorBox } from '../components/feedback.js';
import { useLoad } from '../components/load.js';
import { installmentsText, MethodName } from '../components/status.js';
import { money, taxId, when } from '../format.js';
import { useI18n } from '../i18n.js';
import { BASE, Link } from '../router.js';

interface Receipt {
  transactionId: string;
  amountCents: number;
  paymentMethod: string;
  installments: number;
  card?: { brand: string; last4: string };
  paidAt: string;
  sellerName: string;
  sellerDocument: string;
  description?: string;
  buyerName: string;
  buyerDocument: string;
  refundedCents: number;
}

export function ReceiptPage({ params }: { params: Record<string, string> }) {
  const { t, locale } = useI18n();
  const id = params.id!;
  const found = useLoad(() => get<{ receipt: Receipt; url: string }>(`/transactions/${encodeURIComponent(id)}/receipt`), [id]);
  const r = found.data?.receipt;
  const url = found.data?.url;
  return (
    <>
      <p class="receipt-actions">
        <Link href={`${BASE}/transactions/${encodeURIComponent(id)}`}>← {t('backToSale')}</Link>
      </p>
      <div class="page-head">
        <h1>{t('receiptTitle')}</h1>
        {r && (
          <div class="buttons receipt-actions">
            <button type="button" class="primary" onClick={() => window.print()}>
              {t('receiptPrint')}
            </button>
          </div>
        )}
      </div>
      <ErrorBox error={found.error} />
      {r && url && (
        <>
          <section class="panel" aria-label={t('receiptTitle')}>
            <dl class="facts">
              <dt>{t('amount')}</dt>
              <dd>{money(r.amountCents, locale)}</dd>
              <dt>{t('method')}</dt>
              <dd>
                <MethodName value={r.paymentMethod} />
                {r.card && ` · ${r.card.brand} •••• ${r.card.last4}`}
                {r.installments > 1 && ` · ${installmentsText(r.amountCents, r.installments, t, locale)}`}
              </dd>
              <dt>{t('paidAt')}</dt>
              <dd>{when(r.paidAt, locale)}</dd>
              <dt>{t('receiptSeller')}</dt>
              <dd>
                {r.sellerName} · {taxId(r.sellerDocument)}
              </dd>
              <dt>{t('buyer')}</dt>
              <dd>
                {r.buyerName} · {r.buyerDocument}
              </dd>
              {r.description !== undefined && (
                <>
                  <dt>{t('description')}</dt>
                  <dd>{r.description}</dd>
                </>
              )}
              <dt>{t('id')}</dt>
              <dd class="mono">{r.transactionId}</dd>
              {r.refundedCents > 0 && (
                <>
                  <dt>{t('refundedAmount')}</dt>
                  <dd>{money(r.refundedCents, locale)}</dd>
                </>
              )}
            </dl>
          </section>
          <section class="panel receipt-actions" aria-labelledby="receipt-send-title">
            <h2 id="receipt-send-title">{t('receiptSendTitle')}</h2>
            <p class="muted">{t('receiptNote')}</p>
            <CopyField label={t('receiptLink')} value={url} />
            <p>
              <a href={`https://wa.me/?text=${encodeURIComponent(t('receiptShareText', { url }))}`} target="_blank" rel="noopener noreferrer">
                {t('receiptShareWhatsApp')}
              </a>
            </p>
          </section>
        </>
      )}
    </>
  );
}
