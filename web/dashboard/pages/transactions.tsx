/**
 * Transações: the company's sales, newest first, paged by the server; filters
 * (status, method, period, link) and one search box (Buscar) kept in the
 * address; Exportar CSV is a plain link to the export with the same filters,
 * so the browser downloads the server's stream. A row opens the sale.
 */
import { get, query } from '../api.js';
import { ErrorBox } from '../components/feedback.js';
import { useLoad } from '../components/load.js';
import { Pager, useCursor, type Page } from '../components/pager.js';
import { MethodName, Status } from '../components/status.js';
import { apiFilters, filtersFrom, formFilters } from '../filters.js';
import { money, when } from '../format.js';
import { useI18n } from '../i18n.js';
import { BASE, Link, navigate, useLocation } from '../router.js';
import { useCan } from '../session.js';

export interface Transaction {
  id: string;
  status: string;
  paymentMethod: string;
  installments: number;
  amountCents: number;
  feeCents: number;
  netAmountCents: number;
  refundedCents: number;
  chargedBackCents?: number;
  paymentIntentId: string;
  paymentLinkId?: string;
  referenceId: string;
  description?: string;
  buyer: { name: string; document?: string; email?: string };
  paymentDetails: { card?: { brand: string; last4: string } };
  metadata?: Record<string, string>;
  createdAt: string;
  paidAt?: string;
}

const FILTERS = ['status', 'paymentMethod', 'from', 'to', 'paymentLinkId', 'q'] as const;
const STATUSES = ['PENDING', 'PAID', 'FAILED', 'CANCELED'] as const;
const METHODS = ['CREDIT_CARD', 'PIX', 'BOLETO'] as const;

export function TransactionsPage() {
  const { t, locale } = useI18n();
  const can = useCan();
  const where = useLocation();
  const filters = filtersFrom(where.query, FILTERS);
  const selection = apiFilters(filters);
  const key = query(selection);
  const paging = useCursor();
  const list = useLoad(() => get<Page<Transaction>>(`/transactions${query({ ...selection, cursor: paging.cursor })}`), [key, paging.cursor]);

  const apply = (event: Event) => {
    event.preventDefault();
    paging.reset();
    navigate(`${BASE}/transactions${query(formFilters(event.currentTarget as HTMLFormElement, FILTERS))}`);
  };
  const clear = () => {
    paging.reset();
    navigate(`${BASE}/transactions`);
  };

  return (
    <>
      <div class="page-head">
        <h1>{t('transactionsTitle')}</h1>
        {can('exports') && (
          <a class="button secondary" href={`/dashboard/api/transactions.csv${key}`} download>
            {t('exportCsv')}
          </a>
        )}
      </div>
      <form class="filters" onSubmit={apply} key={where.query.toString()}>
        <label class="field grow">
          <span>{t('search')}</span>
          <input type="search" name="q" defaultValue={filters.q ?? ''} maxLength={200} placeholder={t('searchHint')} />
        </label>
        <label class="field">
          <span>{t('status')}</span>
          <select name="status" defaultValue={filters.status ?? ''}>
            <option value="">{t('all')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status_${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>{t('method')}</span>
          <select name="paymentMethod" defaultValue={filters.paymentMethod ?? ''}>
            <option value="">{t('all')}</option>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {t(`method_${m}`)}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>{t('from')}</span>
          <input type="date" name="from" defaultValue={filters.from ?? ''} />
        </label>
        <label class="field">
          <span>{t('to')}</span>
          <input type="date" name="to" defaultValue={filters.to ?? ''} />
        </label>
        <label class="field">
          <span>{t('paymentLink')}</span>
          <input name="paymentLinkId" defaultValue={filters.paymentLinkId ?? ''} maxLength={64} placeholder="plink_…" spellcheck={false} />
        </label>
        <div class="buttons">
          <button type="submit" class="primary">
            {t('applyFilters')}
          </button>
          <button type="button" class="secondary" onClick={clear}>
            {t('clearFilters')}
          </button>
        </div>
      </form>
      <ErrorBox error={list.error} />
      <div class="table-wrap" tabIndex={0}>
        <table class="rows-link">
          <thead>
            <tr>
              <th scope="col">{t('date')}</th>
              <th scope="col">{t('buyer')}</th>
              <th scope="col" class="num">
                {t('amount')}
              </th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('method')}</th>
              <th scope="col">{t('id')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.data.map((trx) => (
              <tr key={trx.id} onClick={(e) => !(e.target instanceof HTMLAnchorElement) && navigate(`${BASE}/transactions/${trx.id}`)}>
                <td>{when(trx.createdAt, locale)}</td>
                <td>{trx.buyer?.name ?? ''}</td>
                <td class="num">{money(trx.amountCents, locale)}</td>
                <td>
                  <Status value={trx.status} />
                </td>
                <td>
                  <MethodName value={trx.paymentMethod} />
                </td>
                <td class="mono">
                  <Link href={`${BASE}/transactions/${trx.id}`}>{trx.id}</Link>
                </td>
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
