/**
 * Recebíveis: the receivables by expected date, earliest first (the server's
 * order), filtered by status, recipient and period, with totals and Exportar
 * CSV. Each line's gross, fee and net under their names (Bruto, Tarifa,
 * Líquido) and its installment as "1/3"; on a phone each line is a stack of
 * labelled values, so the amounts are on the screen, not behind a scroll.
 */
import { get, query } from '../api.js';
import { ErrorBox } from '../components/feedback.js';
import { Field, FilterButtons, FilterSelect, PeriodFields } from '../components/fields.js';
import { useLoad } from '../components/load.js';
import { ExportLink, PageHead } from '../components/page-head.js';
import { ListEnd, useCursor, type Page } from '../components/pager.js';
import { Status } from '../components/status.js';
import { Table } from '../components/table.js';
import { apiFilters, filtersFrom, formFilters } from '../filters.js';
import { money, taxId, when } from '../format.js';
import { useI18n } from '../i18n.js';
import { BASE, Link, navigate, useLocation } from '../router.js';
import { useCan } from '../session.js';
import type { ComponentChildren } from 'preact';

interface Receivable {
  id?: string;
  transactionId?: string;
  recipientDocument: string;
  installment: number;
  /** The sale's number of installments (the dashboard's list adds it). */
  installmentCount?: number;
  grossAmountCents?: number;
  feeCents?: number;
  amountCents: number;
  expectedOn: string;
  status: string;
  adjustment?: 'REFUND' | 'CHARGEBACK';
}

interface ReceivablePage extends Page<Receivable> {
  totals?: { amount: number; byStatus: Record<string, number> };
}

const FILTERS = ['status', 'recipient', 'from', 'to'] as const;
const STATUSES = ['PENDING', 'PAID'] as const;

/** A cell with its column's name before the value, shown only where the row is a stack (a phone: the header row is then out of sight). */
function Cell({ label, num, mono, children }: { label: string; num?: boolean; mono?: boolean; children: ComponentChildren }) {
  return (
    <td class={num ? 'num' : undefined}>
      <span class="cell-label">{label}</span>
      <span class={mono ? 'cell-value mono' : 'cell-value'}>{children}</span>
    </td>
  );
}

export function ReceivablesPage() {
  const { t, locale } = useI18n();
  const can = useCan();
  const where = useLocation();
  const filters = filtersFrom(where.query, FILTERS);
  const key = query(apiFilters(filters));
  const paging = useCursor();
  const list = useLoad(() => get<ReceivablePage>(`/receivables${query({ ...apiFilters(filters), cursor: paging.cursor })}`), [key, paging.cursor]);
  const totals = list.data?.totals;

  const apply = (event: Event) => {
    event.preventDefault();
    paging.reset();
    navigate(`${BASE}/receivables${query(formFilters(event.currentTarget as HTMLFormElement, FILTERS))}`);
  };

  const installment = (r: Receivable) => (r.adjustment ? t(`adjustment_${r.adjustment}`) : r.installmentCount ? `${r.installment}/${r.installmentCount}` : String(r.installment));
  const columns = {
    expectedOn: t('expectedOn'),
    transaction: t('transaction'),
    recipient: t('recipient'),
    installment: t('installment'),
    status: t('status'),
    gross: t('gross'),
    fee: t('fee'),
    net: t('net'),
  };

  return (
    <>
      <PageHead title={t('receivablesTitle')}>{can('exports') && <ExportLink href={`/dashboard/api/receivables.csv${query({ ...apiFilters(filters), lang: locale })}`} label={t('exportCsv')} />}</PageHead>
      <form class="filters" onSubmit={apply} key={where.query.toString()}>
        <FilterSelect label={t('status')} name="status" value={filters.status} options={STATUSES.map((s) => [s, t(`status_${s}`)] as const)} />
        <Field label={t('recipient')}>
          <input name="recipient" defaultValue={filters.recipient ?? ''} maxLength={18} placeholder={t('document')} />
        </Field>
        <PeriodFields filters={filters} />
        <FilterButtons />
      </form>
      <ErrorBox error={list.error} />
      {totals && (
        <section class="cards" aria-label={t('totals')}>
          <div class="card">
            <h2>{t('total')}</h2>
            <p class="big">{money(totals.amount, locale)}</p>
          </div>
          {Object.entries(totals.byStatus ?? {}).map(([status, amount]) => (
            <div class="card" key={status}>
              <h2>
                <Status value={status} />
              </h2>
              <p class="big">{money(amount, locale)}</p>
            </div>
          ))}
        </section>
      )}
      <Table
        stacked
        columns={[columns.expectedOn, columns.transaction, columns.recipient, columns.installment, columns.status, [columns.gross, 'num'], [columns.fee, 'num'], [columns.net, 'num']]}
      >
        {list.data?.data.map((r, i) => (
          <tr key={r.id ?? i}>
            <Cell label={columns.expectedOn}>{when(r.expectedOn, locale)}</Cell>
            <Cell label={columns.transaction} mono>
              {r.transactionId ? <Link href={`${BASE}/transactions/${r.transactionId}`}>{r.transactionId}</Link> : ''}
            </Cell>
            <Cell label={columns.recipient}>{taxId(r.recipientDocument)}</Cell>
            <Cell label={columns.installment}>{installment(r)}</Cell>
            <Cell label={columns.status}>
              <Status value={r.status} />
            </Cell>
            <Cell label={columns.gross} num>
              {r.grossAmountCents === undefined ? '' : money(r.grossAmountCents, locale)}
            </Cell>
            <Cell label={columns.fee} num>
              {r.feeCents === undefined ? '' : money(r.feeCents, locale)}
            </Cell>
            <Cell label={columns.net} num>
              {money(r.amountCents, locale)}
            </Cell>
          </tr>
        ))}
      </Table>
      <ListEnd page={list.data} paging={paging} empty={t('receivablesEmpty')} />
    </>
  );
}
