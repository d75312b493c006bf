/**
 * Início: paid sales today and over 30 days, what is pending, refunded and
 * charged back; the money side (A receber by date, Recebido, Tarifas do mês);
 * and the daily chart. A card whose list can be filtered to what it sums
 * links there (its title): the paid-today card to Transações with status
 * PAID and today's period, A receber to Recebíveis with PENDING.
 */
import { get, query } from '../api.js';
import { DailyChart, type Day } from '../chart.js';
import { ErrorBox } from '../components/feedback.js';
import { useLoad } from '../components/load.js';
import { money, when } from '../format.js';
import { useI18n } from '../i18n.js';
import { BASE, Link } from '../router.js';
import type { TextKey } from '../texts.js';

interface Tally {
  count: number;
  amount: number;
}

interface Home {
  today: Tally;
  last30Days: Tally;
  pending: Tally;
  refunded: Tally;
  chargedBack: Tally;
  receivables: { toReceive: number; paid: number; receivedThisMonth?: number; next?: { date: string; amount: number }[] };
  fees?: { thisMonth: number };
  daily: Day[];
}

type TallyField = 'today' | 'last30Days' | 'pending' | 'refunded' | 'chargedBack';

/** Each sales card, and the Transações filters of the list it sums (none: no link), from the chart's first day and today. */
const TALLIES: readonly [TallyField, TextKey, ((first: string, today: string) => Record<string, string>) | undefined][] = [
  ['today', 'today', (_, today) => ({ status: 'PAID', from: today, to: today })],
  ['last30Days', 'last30Days', (first, today) => ({ status: 'PAID', from: first, to: today })],
  ['pending', 'pending', (first) => ({ status: 'PENDING', from: first })],
  // Refunded counts full and partial refunds, two filters of the list: the card has no one list to open.
  ['refunded', 'refunded', undefined],
  ['chargedBack', 'chargedBack', (first) => ({ status: 'CHARGED_BACK', from: first })],
];

const transactionsOf = (filters: Record<string, string>) => `${BASE}/transactions${query(filters)}`;

function CardTitle({ text, href }: { text: string; href: string | undefined }) {
  return <h2>{href ? <Link href={href}>{text}</Link> : text}</h2>;
}

export function HomePage() {
  const { t, locale } = useI18n();
  const home = useLoad(() => get<Home>('/home'), []);
  const data = home.data;
  const first = data?.daily[0]?.date ?? '';
  const today = data?.daily[data.daily.length - 1]?.date ?? '';
  const next = data?.receivables.next;
  return (
    <>
      <h1>{t('homeTitle')}</h1>
      <ErrorBox error={home.error} />
      {data && (
        <>
          <ul class="cards">
            {TALLIES.map(([field, label, filters]) => {
              const tally = data[field];
              return (
                <li class="card" key={field}>
                  <CardTitle text={t(label)} href={filters && today ? transactionsOf(filters(first, today)) : undefined} />
                  <p class="big">{money(tally.amount, locale)}</p>
                  <p class="muted">{tally.count === 1 ? t('salesCountOne') : t('salesCount', { count: tally.count })}</p>
                </li>
              );
            })}
            <li class="card">
              <CardTitle text={t('toReceive')} href={`${BASE}/receivables?status=PENDING`} />
              <p class="big">{money(data.receivables.toReceive, locale)}</p>
              {next === undefined ? null : next.length > 0 ? (
                <ul class="next-dates" aria-label={t('nextDates')}>
                  {next.map((d) => (
                    <li key={d.date}>
                      <span>{when(d.date, locale)}</span> <span class="num">{money(d.amount, locale)}</span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="muted">{t('nothingToReceive')}</p>
              )}
            </li>
            <li class="card">
              <CardTitle text={t('received')} href={`${BASE}/receivables?status=PAID`} />
              <p class="big">{money(data.receivables.receivedThisMonth ?? data.receivables.paid, locale)}</p>
              <p class="muted">{t('receivedNote', { total: money(data.receivables.paid, locale) })}</p>
            </li>
            {data.fees && (
              <li class="card">
                <CardTitle text={t('monthFees')} href={today ? transactionsOf({ status: 'PAID', from: `${today.slice(0, 8)}01`, to: today }) : undefined} />
                <p class="big">{money(data.fees.thisMonth, locale)}</p>
                <p class="muted">{t('monthFeesNote')}</p>
              </li>
            )}
          </ul>
          <section class="panel" aria-label={t('chartTitle')}>
            <DailyChart days={data.daily} />
          </section>
        </>
      )}
    </>
  );
}
