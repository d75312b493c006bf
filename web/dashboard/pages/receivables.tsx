/** Recebíveis: the receivables by expected date, filtered by status, recipient and period, with totals and Exportar CSV. */
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

interface Receivable {
  id?: string;
  transactionId?: string;
  recipientDocument: string;
  installment: number;
  amountCents: number;
  expectedOn: string;
  status: string;
}

interface ReceivablePage extends Page<Receivable> {
  totals?: { amount: number; byStatus: Record<string, number> };
}

const FILTERS = ['status', 'recipient', 'from', 'to'] as const;
const STATUSES = ['PENDING', 'PAID'] as const;

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

  return (
    <>
      <PageHead title={t('receivablesTitle')}>{can('exports') && <ExportLink href={`/dashboard/api/receivables.csv${key}`} label={t('exportCsv')} />}</PageHead>
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
      <Table columns={[t('expectedOn'), t('transaction'), t('recipient'), t('installments'), t('status'), [t('amount'), 'num']]}>
        {list.data?.data.map((r, i) => (
          <tr key={r.id ?? i}>
            <td>{when(r.expectedOn, locale)}</td>
            <td class="mono">{r.transactionId ? <Link href={`${BASE}/transactions/${r.transactionId}`}>{r.transactionId}</Link> : ''}</td>
            <td>{taxId(r.recipientDocument)}</td>
            <td>{r.installment}</td>
            <td>
              <Status value={r.status} />
            </td>
            <td class="num">{money(r.amountCents, locale)}</td>
          </tr>
        ))}
      </Table>
      <ListEnd page={list.data} paging={paging} empty={t('noResults')} />
    </>
  );
}
