/**
 * The paid amount per day as bars: an SVG drawn here (no chart library), in
 * a viewBox that scales to any width, named by a title and described by a
 * sentence; the numbers themselves are in a table behind a disclosure. The
 * axes' labels (reais on the left, dates below) are HTML beside the SVG, so
 * they keep their size when the bars stretch to the width; the SVG's
 * gridlines sit at the same heights. No paid day: a sentence, not a blank chart.
 */
import { useId } from 'preact/hooks';
import { money, when } from './format.js';
import { useI18n, type Locale } from './i18n.js';

export interface Day {
  date: string;
  amount: number;
}

const WIDTH = 600;
const HEIGHT = 160;
const GAP = 2;
/** Gridlines above zero. */
const TICKS = 4;
/** Dates written under the bars: the first day, then every 7th, so the labels never crowd at 390 px. */
const DATE_EVERY = 7;

/** The top of the scale: the smallest 1, 2, 2.5 or 5 × 10^k reais (in centavos) a multiple of TICKS that holds `max`. */
function scaleTop(max: number): number {
  if (max <= 0) return TICKS * 100;
  const raw = max / TICKS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  // Whole centavos per step; a step below R$ 1 rounds up to R$ 1.
  return Math.max(100, Math.ceil(step)) * TICKS;
}

/** Reais for an axis: no centavos when the value is whole (R$ 2.500), as the language writes it. */
const axisMoney = (cents: number, locale: Locale): string =>
  new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'pt-BR', { style: 'currency', currency: 'BRL', minimumFractionDigits: 0, maximumFractionDigits: cents % 100 === 0 ? 0 : 2 }).format(cents / 100);

/** A day as the axis writes it: 21/11. */
const dayMonth = (date: string, locale: Locale): string =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString(locale === 'en' ? 'en-GB' : 'pt-BR', { timeZone: 'UTC', day: '2-digit', month: '2-digit' });

export function DailyChart({ days }: { days: readonly Day[] }) {
  const { t, locale } = useI18n();
  const titleId = useId();
  const descId = useId();
  const total = days.reduce((sum, d) => sum + d.amount, 0);
  if (total === 0) return <p class="empty-state">{t('chartEmpty')}</p>;
  const top = scaleTop(Math.max(0, ...days.map((d) => d.amount)));
  const ticks = Array.from({ length: TICKS + 1 }, (_, i) => (top / TICKS) * i);
  const best = days.reduce<Day | undefined>((winner, d) => (!winner || d.amount > winner.amount ? d : winner), undefined);
  const slot = days.length > 0 ? WIDTH / days.length : WIDTH;
  const y = (cents: number) => HEIGHT - (cents / top) * HEIGHT;
  return (
    <figure class="chart">
      <div class="chart-plot">
        <ol class="chart-y" aria-hidden="true">
          {ticks.map((v) => (
            <li key={v} class={`tick-${Math.round((v / top) * TICKS)}`}>
              {axisMoney(v, locale)}
            </li>
          ))}
        </ol>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${titleId} ${descId}`} preserveAspectRatio="none">
          <title id={titleId}>{t('chartTitle')}</title>
          <desc id={descId}>{t('chartSummary', { total: money(total, locale), day: best ? when(best.date, locale) : '-', max: money(best?.amount ?? 0, locale) })}</desc>
          {ticks.map((v) => (
            <line key={v} x1={0} y1={Math.min(HEIGHT - 0.5, Math.max(0.5, y(v)))} x2={WIDTH} y2={Math.min(HEIGHT - 0.5, Math.max(0.5, y(v)))} class={v === 0 ? 'axis' : 'grid'} />
          ))}
          {days.map((d, i) => {
            const h = Math.max(d.amount > 0 ? 2 : 0, (d.amount / top) * HEIGHT);
            return <rect key={d.date} x={i * slot + GAP / 2} y={HEIGHT - h} width={Math.max(1, slot - GAP)} height={h} class="bar" />;
          })}
        </svg>
        <ol class="chart-x" aria-hidden="true">
          {days.map((d, i) =>
            i % DATE_EVERY === 0 ? (
              <li key={d.date} class={`at-${i}`}>
                {dayMonth(d.date, locale)}
              </li>
            ) : null,
          )}
        </ol>
      </div>
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
