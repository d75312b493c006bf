/**
 * The paid amount per day as bars: an SVG drawn here (no chart library), in
 * a viewBox that scales to any width, named by a title and described by a
 * sentence; the numbers themselves are in a table behind a disclosure.
 */
import { useId } from 'preact/hooks';
import { money, when } from './format.js';
import { useI18n } from './i18n.js';

export interface Day {
  date: string;
  amount: number;
}

const WIDTH = 600;
const HEIGHT = 160;
const GAP = 2;

export function DailyChart({ days }: { days: readonly Day[] }) {
  const { t, locale } = useI18n();
  const titleId = useId();
  const descId = useId();
  const max = Math.max(0, ...days.map((d) => d.amount));
  const total = days.reduce((sum, d) => sum + d.amount, 0);
  const best = days.reduce<Day | undefined>((top, d) => (!top || d.amount > top.amount ? d : top), undefined);
  const slot = days.length > 0 ? WIDTH / days.length : WIDTH;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${titleId} ${descId}`} preserveAspectRatio="none">
        <title id={titleId}>{t('chartTitle')}</title>
        <desc id={descId}>{t('chartSummary', { total: money(total, locale), day: best ? when(best.date, locale) : '-', max: money(best?.amount ?? 0, locale) })}</desc>
        <line x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} class="axis" />
        {days.map((d, i) => {
          const h = max > 0 ? Math.max(d.amount > 0 ? 2 : 0, (d.amount / max) * (HEIGHT - 8)) : 0;
          return <rect key={d.date} x={i * slot + GAP / 2} y={HEIGHT - h} width={Math.max(1, slot - GAP)} height={h} class="bar" />;
        })}
      </svg>
      <figcaption>
        <p aria-hidden="true">{t('chartTitle')}</p>
        <details>
          <summary>{t('chartData')}</summary>
          <div class="table-wrap" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('day')}</th>
                  <th scope="col">{t('amount')}</th>
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.date}>
                    <td>{when(d.date, locale)}</td>
                    <td class="num">{money(d.amount, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </figcaption>
    </figure>
  );
}
