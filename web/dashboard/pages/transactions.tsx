/**
 * Transações: the company's sales, newest first, paged by the server; filters
 * (status, method, period, link) and one search box (Buscar) kept in the
 * address; Exportar CSV is a plain link to the export with the same filters,
 * so the browser downloads the server's stream. A row opens the sale.
 */
import { get, query } from '../api.js';
import { ErrorBox } from '../components/feedback.js';
import { Field, FilterButtons, FilterSelect, PeriodFields } from '../components/fields.js';
import { useLoad } from '../components/load.js';
import { ExportLink, PageHead } from '../components/page-head.js';
import { ListEnd, useCursor, type Page } from '../components/pager.js';
import { MethodName, SaleStatus } from '../components/status.js';
import { Table } from '../components/table.js';
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
  sellerName?: string;
  paymentLinkId?: string;
  referenceId: string;
  description?: string;
  buyer: { name: string; document?: string; email?: string };
  paymentDetails: { card?: { brand: string; last4: string }; boleto?: { digitableLine: string; barcode: string; dueDate: string; url?: string } };
  metadata?: Record<string, string>;
  createdAt: string;
  paidAt?: string;
}

const FILTERS = ['status', 'paymentMethod', 'from', 'to', 'paymentLinkId', 'q'] as const;
/** The stored statuses, then what became of a paid sale (the server's REFUND_STATES filter). */
const STATUSES = ['PENDING', 'PAID', 'FAILED', 'CANCELED', 'REFUNDED', 'PARTIALLY_REFUNDED', 'CHARGED_BACK'] as const;
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
      <PageHead title={t('transactionsTitle')}>{can('exports') && <ExportLink href={`/dashboard/api/transactions.csv${query({ ...selection, lang: locale })}`} label={t('exportCsv')} />}</PageHead>
      <form class="filters" onSubmit={apply} key={where.query.toString()}>
        <Field label={t('search')} grow>
          <input type="search" name="q" defaultValue={filters.q ?? ''} maxLength={200} placeholder={t('searchHint')} />
        </Field>
        <FilterSelect label={t('status')} name="status" value={filters.status} options={STATUSES.map((s) => [s, t(`status_${s}`)] as const)} />
        <FilterSelect label={t('method')} name="paymentMethod" value={filters.paymentMethod} options={METHODS.map((m) => [m, t(`method_${m}`)] as const)} />
        <PeriodFields filters={filters} />
        <Field label={t('paymentLink')}>
          <input name="paymentLinkId" defaultValue={filters.paymentLinkId ?? ''} maxLength={64} placeholder="plink_…" spellcheck={false} />
        </Field>
        <FilterButtons onClear={clear} />
      </form>
      <ErrorBox error={list.error} />
      <Table rowsLink columns={[t('date'), t('buyer'), [t('amount'), 'num'], t('status'), t('method'), t('id')]}>
        {list.data?.data.map((trx) => (
          <tr key={trx.id} onClick={(e) => !(e.target instanceof HTMLAnchorElement) && navigate(`${BASE}/transactions/${trx.id}`)}>
            <td>{when(trx.createdAt, locale)}</td>
            <td>{trx.buyer?.name ?? ''}</td>
            <td class="num">{money(trx.amountCents, locale)}</td>
            <td>
              <SaleStatus trx={trx} />
            </td>
            <td>
              <MethodName value={trx.paymentMethod} />
            </td>
            <td class="mono">
              <Link href={`${BASE}/transactions/${trx.id}`}>{trx.id}</Link>
            </td>
          </tr>
        ))}
      </Table>
      <ListEnd page={list.data} paging={paging} empty={t('noResults')} />
    </>
  );
}
