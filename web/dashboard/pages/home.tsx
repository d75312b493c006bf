/** Início: today's and the last 30 days' paid sales, what is pending, refunded and charged back, the receivables, and the daily chart. */
import { get } from '../api.js';
import { DailyChart, type Day } from '../chart.js';
import { ErrorBox } from '../components/feedback.js';
import { useLoad } from '../components/load.js';
import { money } from '../format.js';
import { useI18n } from '../i18n.js';
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
  receivables: { toReceive: number; paid: number };
  daily: Day[];
}

const TALLIES: readonly [keyof Home, TextKey][] = [
  ['today', 'today'],
  ['last30Days', 'last30Days'],
  ['pending', 'pending'],
  ['refunded', 'refunded'],
  ['chargedBack', 'chargedBack'],
];

export function HomePage() {
  const { t, locale } = useI18n();
  const home = useLoad(() => get<Home>('/home'), []);
  const data = home.data;
  return (
    <>
      <h1>{t('homeTitle')}</h1>
      <ErrorBox error={home.error} />
      {data && (
        <>
          <ul class="cards">
            {TALLIES.map(([field, label]) => {
              const tally = data[field] as Tally;
              return (
                <li class="card" key={field}>
                  <h2>{t(label)}</h2>
                  <p class="big">{money(tally.amount, locale)}</p>
                  <p class="muted">{tally.count === 1 ? t('salesCountOne') : t('salesCount', { count: tally.count })}</p>
                </li>
              );
            })}
            <li class="card">
              <h2>{t('toReceive')}</h2>
              <p class="big">{money(data.receivables.toReceive, locale)}</p>
            </li>
            <li class="card">
              <h2>{t('paidOut')}</h2>
              <p class="big">{money(data.receivables.paid, locale)}</p>
            </li>
          </ul>
          <section class="panel" aria-label={t('chartTitle')}>
            <DailyChart days={data.daily} />
          </section>
        </>
      )}
    </>
  );
}
