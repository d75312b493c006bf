/**
 * A sale: every field, its split and receivables, its refunds, and the
 * timeline of its events with each webhook delivery. Reembolsar opens a
 * dialog whose Idempotency-Key is made when it opens, so a double click or a
 * retry of the same dialog refunds once. In the sandbox, Simular pagamento
 * pays a pending Pix or boleto. A boleto shows its second copy (line, barcode,
 * due date, Imprimir boleto); a paid sale opens its Comprovante.
 */
import { Fragment } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import { get, newIdempotencyKey, post } from '../api.js';
import { Dialog } from '../components/dialog.js';
import { Field } from '../components/fields.js';
import { ErrorBox, Notice } from '../components/feedback.js';
import { useAction, useLoad } from '../components/load.js';
import { eventName, installmentsText, MethodName, SaleStatus, Status } from '../components/status.js';
import { BoletoCopy } from './sale-boleto.js';
import { money, parseReais, reaisText, taxId, when } from '../format.js';
import { useI18n } from '../i18n.js';
import { BASE, Link } from '../router.js';
import { useCan, useSession } from '../session.js';
import type { Transaction } from './transactions.js';

interface Receivable {
  recipientDocument: string;
  role: string;
  installment: number;
  grossAmountCents: number;
  feeCents: number;
  amountCents: number;
  expectedOn: string;
  status: string;
}

interface Refund {
  id: string;
  amountCents: number;
  status: string;
  reason?: string;
  createdAt: string;
}

interface Sale {
  transaction: Transaction;
  receivables: Receivable[];
  refunds: Refund[];
  timeline: { event: { id: string; type: string; createdAt: string }; deliveries: { webhookId: string; url: string; attempt: number; status: string; httpStatus?: number | null; at: string }[] }[];
}

export function SalePage({ params }: { params: Record<string, string> }) {
  const { t, locale } = useI18n();
  const can = useCan();
  const { me } = useSession();
  const id = params.id!;
  const sale = useLoad(() => get<Sale>(`/transactions/${encodeURIComponent(id)}`), [id]);
  const simulate = useAction();
  const [refunding, setRefunding] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const trx = sale.data?.transaction;
  const refundable = trx ? trx.amountCents - trx.refundedCents - (trx.chargedBackCents ?? 0) : 0;

  const pay = async () => {
    const ok = await simulate.run(() => post(`/transactions/${encodeURIComponent(id)}/simulate-payment`).then(() => true));
    if (ok) sale.reload();
  };

  return (
    <>
      <p>
        <Link href={`${BASE}/transactions`}>← {t('backToTransactions')}</Link>
      </p>
      <div class="page-head">
        <h1 class="break">{t('saleTitle', { id })}</h1>
        {trx && (
          <div class="buttons">
            {can('sales.refund') && trx.status === 'PAID' && refundable > 0 && (
              <button type="button" class="primary" onClick={() => (setNotice(undefined), setRefunding(true))}>
                {t('refund')}
              </button>
            )}
            {trx.paidAt && (
              <Link class="button secondary" href={`${BASE}/transactions/${encodeURIComponent(trx.id)}/receipt`}>
                {t('receipt')}
              </Link>
            )}
            {me.environment === 'sandbox' && can('sales.simulate') && trx.status === 'PENDING' && trx.paymentMethod !== 'CREDIT_CARD' && (
              <button type="button" class="secondary" disabled={simulate.busy} onClick={() => void pay()}>
                {t('simulatePayment')}
              </button>
            )}
          </div>
        )}
      </div>
      <ErrorBox error={sale.error ?? simulate.error} />
      <Notice text={notice} />
      {sale.data && trx && (
        <>
          <section class="panel" aria-labelledby="details-title">
            <h2 id="details-title">{t('details')}</h2>
            <dl class="facts">
              <dt>{t('status')}</dt>
              <dd>
                <SaleStatus trx={trx} />
              </dd>
              <dt>{t('amount')}</dt>
              <dd>{money(trx.amountCents, locale)}</dd>
              <dt>{t('fee')}</dt>
              <dd>{money(trx.feeCents, locale)}</dd>
              <dt>{t('net')}</dt>
              <dd>{money(trx.netAmountCents, locale)}</dd>
              <dt>{t('refundedAmount')}</dt>
              <dd>{money(trx.refundedCents, locale)}</dd>
              {trx.chargedBackCents !== undefined && (
                <>
                  <dt>{t('chargedBack')}</dt>
                  <dd>{money(trx.chargedBackCents, locale)}</dd>
                </>
              )}
              <dt>{t('method')}</dt>
              <dd>
                <MethodName value={trx.paymentMethod} />
                {trx.paymentDetails?.card && ` · ${trx.paymentDetails.card.brand} •••• ${trx.paymentDetails.card.last4}`}
                {trx.installments > 1 && ` · ${installmentsText(trx.amountCents, trx.installments, t, locale)}`}
              </dd>
              <dt>{t('id')}</dt>
              <dd class="mono">{trx.id}</dd>
              <dt>{t('paymentIntent')}</dt>
              <dd class="mono">{trx.paymentIntentId}</dd>
              <dt>{t('reference')}</dt>
              <dd class="mono">{trx.referenceId}</dd>
              {trx.description !== undefined && (
                <>
                  <dt>{t('description')}</dt>
                  <dd>{trx.description}</dd>
                </>
              )}
              {trx.paymentLinkId && (
                <>
                  <dt>{t('paymentLink')}</dt>
                  <dd class="mono">{trx.paymentLinkId}</dd>
                </>
              )}
              <dt>{t('buyer')}</dt>
              <dd>{trx.buyer?.name}</dd>
              {trx.buyer?.document && (
                <>
                  <dt>{t('document')}</dt>
                  <dd>{taxId(trx.buyer.document)}</dd>
                </>
              )}
              {trx.buyer?.email && (
                <>
                  <dt>{t('email')}</dt>
                  <dd>{trx.buyer.email}</dd>
                </>
              )}
              <dt>{t('createdAt')}</dt>
              <dd>{when(trx.createdAt, locale)}</dd>
              {trx.paidAt && (
                <>
                  <dt>{t('paidAt')}</dt>
                  <dd>{when(trx.paidAt, locale)}</dd>
                </>
              )}
              {Object.entries(trx.metadata ?? {}).map(([name, value]) => (
                <Fragment key={name}>
                  <dt>
                    {t('metadata')}: {name}
                  </dt>
                  <dd>{value}</dd>
                </Fragment>
              ))}
            </dl>
          </section>
          {trx.paymentDetails?.boleto && <BoletoCopy trx={trx} boleto={trx.paymentDetails.boleto} />}
          <section class="panel" aria-labelledby="split-title">
            <h2 id="split-title">{t('splitTitle')}</h2>
            <div class="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('recipient')}</th>
                    <th scope="col">{t('installments')}</th>
                    <th scope="col">{t('expectedOn')}</th>
                    <th scope="col" class="num">{t('gross')}</th>
                    <th scope="col" class="num">{t('fee')}</th>
                    <th scope="col" class="num">{t('net')}</th>
                    <th scope="col">{t('status')}</th>
                  </tr>
                </thead>
                <tbody>
                  {sale.data.receivables.map((r, i) => (
                    <tr key={i}>
                      <td>{taxId(r.recipientDocument)}</td>
                      <td>{r.installment}</td>
                      <td>{when(r.expectedOn, locale)}</td>
                      <td class="num">{money(r.grossAmountCents, locale)}</td>
                      <td class="num">{money(r.feeCents, locale)}</td>
                      <td class="num">{money(r.amountCents, locale)}</td>
                      <td>
                        <Status value={r.status} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          {sale.data.refunds.length > 0 && (
            <section class="panel" aria-labelledby="refunds-title">
              <h2 id="refunds-title">{t('refundsTitle')}</h2>
              <div class="table-wrap" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t('id')}</th>
                      <th scope="col">{t('date')}</th>
                      <th scope="col">{t('reason')}</th>
                      <th scope="col">{t('status')}</th>
                      <th scope="col" class="num">{t('amount')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {sale.data.refunds.map((r) => (
                      <tr key={r.id}>
                        <td class="mono">{r.id}</td>
                        <td>{when(r.createdAt, locale)}</td>
                        <td>{r.reason ?? ''}</td>
                        <td>
                          <Status value={r.status} />
                        </td>
                        <td class="num">{money(r.amountCents, locale)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          )}
          <section class="panel" aria-labelledby="timeline-title">
            <h2 id="timeline-title">{t('timelineTitle')}</h2>
            <ol class="timeline">
              {sale.data.timeline.map(({ event, deliveries }) => (
                <li key={event.id}>
                  <p>
                    <strong>{eventName(event.type, t)}</strong>{' '}
                    · {when(event.createdAt, locale)}
                  </p>
                  {deliveries.length === 0 ? (
                    <p class="muted small">{t('noDeliveries')}</p>
                  ) : (
                    <div class="table-wrap" tabIndex={0}>
                      <table>
                        <thead>
                          <tr>
                            <th scope="col">{t('url')}</th>
                            <th scope="col">{t('httpStatus')}</th>
                            <th scope="col">{t('at')}</th>
                            <th scope="col">{t('attempt')}</th>
                            <th scope="col">{t('status')}</th>
                          </tr>
                        </thead>
                        <tbody>
                          {deliveries.map((d, i) => (
                            <tr key={i}>
                              <td class="break">{d.url}</td>
                              <td>{d.httpStatus ?? '—'}</td>
                              <td>{when(d.at, locale)}</td>
                              <td>{d.attempt}</td>
                              <td>
                                <Status value={d.status} />
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  )}
                </li>
              ))}
            </ol>
          </section>
        </>
      )}
      {refunding && trx && (
        <RefundDialog
          transactionId={trx.id}
          refundable={refundable}
          onClose={(message) => {
            setRefunding(false);
            if (message) {
              setNotice(message);
              sale.reload();
            }
          }}
        />
      )}
    </>
  );
}

/** What the refund's answer says, in words: done, waiting for the acquirer (a card's), or refused. */
const REFUND_OUTCOME: Record<string, 'refundDone' | 'refundPending' | 'refundFailed'> = { SUCCEEDED: 'refundDone', PENDING: 'refundPending', FAILED: 'refundFailed' };

function RefundDialog({ transactionId, refundable, onClose }: { transactionId: string; refundable: number; onClose: (message?: string) => void }) {
  const { t, locale } = useI18n();
  const action = useAction();
  // One key for this dialog: every click of Confirmar reembolso in it is the same refund.
  const idempotencyKey = useMemo(newIdempotencyKey, []);
  const amount = useRef<HTMLInputElement>(null);
  const reason = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (action.busy) return;
    const cents = parseReais(amount.current!.value);
    if (cents === undefined || cents <= 0) return setProblem(t('amountInvalid'));
    setProblem(undefined);
    const typedReason = reason.current!.value.trim();
    const refund = await action.run(() =>
      post<{ amountCents: number; status: string }>(`/transactions/${encodeURIComponent(transactionId)}/refunds`, { amount: cents, ...(typedReason ? { reason: typedReason } : {}) }, { 'idempotency-key': idempotencyKey }),
    );
    if (refund) onClose(t(REFUND_OUTCOME[refund.status] ?? 'refundPending', { amount: money(refund.amountCents ?? cents, locale) }));
  };
  return (
    <Dialog title={t('refundTitle')} onClose={() => onClose()}>
      <form onSubmit={submit} noValidate>
        <p class="muted">{t('refundable', { amount: money(refundable, locale) })}</p>
        <Field label={t('amount')}>
          <input ref={amount} name="amount" inputMode="decimal" defaultValue={reaisText(refundable)} required maxLength={20} aria-describedby={problem ? 'refund-problem' : undefined} />
        </Field>
        {problem && (
          <p id="refund-problem" class="error" role="alert">
            {problem}
          </p>
        )}
        <Field label={t('reason')}>
          <input ref={reason} name="reason" maxLength={255} />
        </Field>
        <ErrorBox error={action.error} />
        <div class="buttons">
          <button type="submit" class="danger" disabled={action.busy}>
            {t('confirmRefund')}
          </button>
          <button type="button" class="secondary" onClick={() => onClose()}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
