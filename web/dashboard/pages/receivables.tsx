/** Recebíveis: the receivables by expected date, filtered by status, recipient and period, with totals and Exportar CSV. */
import { get, query } from '../api.js';
import { ErrorBox } from '../components/feedback.js';
import { useLoad } from '../components/load.js';
import { Pager, useCursor, type Page } from '../components/pager.js';
import { Status } from '../components/status.js';
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
      <div class="page-head">
        <h1>{t('receivablesTitle')}</h1>
        {can('exports') && (
          <a class="button secondary" href={`/dashboard/api/receivables.csv${key}`} download>
            {t('exportCsv')}
          </a>
        )}
      </div>
      <form class="filters" onSubmit={apply} key={where.query.toString()}>
        <label class="field">
          <span>{t('status')}</span>
          <select name="status" defaultValue={filters.status ?? ''}>
            <option value="">{t('all')}</option>
            <option value="PENDING">{t('status_PENDING')}</option>
            <option value="PAID">{t('status_PAID')}</option>
          </select>
        </label>
        <label class="field">
          <span>{t('recipient')}</span>
          <input name="recipient" defaultValue={filters.recipient ?? ''} maxLength={18} placeholder={t('document')} />
        </label>
        <label class="field">
          <span>{t('from')}</span>
          <input type="date" name="from" defaultValue={filters.from ?? ''} />
        </label>
        <label class="field">
          <span>{t('to')}</span>
          <input type="date" name="to" defaultValue={filters.to ?? ''} />
        </label>
        <div class="buttons">
          <button type="submit" class="primary">
            {t('applyFilters')}
          </button>
        </div>
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
      <div class="table-wrap" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('expectedOn')}</th>
              <th scope="col">{t('transaction')}</th>
              <th scope="col">{t('recipient')}</th>
              <th scope="col">{t('installments')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col" class="num">{t('amount')}</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      </div>
      {list.data && list.data.data.length === 0 && <p class="muted">{t('noResults')}</p>}
      <Pager page={list.data} paging={paging} />
    </>
  );
}
