/**
 * One currency's days as bars (gross volume, and the refunded part of it over it), plain inline SVG: an
 * image with a name for assistive technology, whose figures are the table below it (docs/dashboard.md).
 */
import type { OverviewCurrency } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import { fill, type DashboardMessages } from './locales';

const BAR = 10;
const HEIGHT = 100;

export function DailyChart({ t, locale, currency }: { t: DashboardMessages; locale: string; currency: OverviewCurrency }) {
  const money = (amount: number) => formatAmount(amount, currency.currency, currency.currency_exponent, locale);
  const highest = Math.max(1, ...currency.days.map((day) => day.gross_volume));
  const height = (amount: number) => (amount / highest) * HEIGHT;
  const name = fill(t.overview.chart, { currency: currency.currency });
  const id = `chart-${currency.currency}`;
  return (
    <figure class="chart">
      <svg role="img" aria-labelledby={`${id}-title`} viewBox={`0 0 ${currency.days.length * BAR} ${HEIGHT}`} preserveAspectRatio="none">
        <title id={`${id}-title`}>{name}</title>
        {currency.days.map((day, i) => (
          <g key={day.date}>
            <rect class="bar-gross" x={i * BAR + 1} width={BAR - 2} y={HEIGHT - height(day.gross_volume)} height={height(day.gross_volume)} />
            <rect class="bar-refunded" x={i * BAR + 1} width={BAR - 2} y={HEIGHT - height(day.refunded)} height={height(day.refunded)} />
          </g>
        ))}
      </svg>
      <figcaption>
        <span class="key key-gross" aria-hidden="true" /> {t.overview.grossVolume} <span class="key key-refunded" aria-hidden="true" /> {t.overview.refunded}
      </figcaption>
      <details>
        <summary>{t.overview.chartTable}</summary>
        <table>
          <caption class="visually-hidden">{name}</caption>
          <thead>
            <tr>
              <th scope="col">{t.overview.day}</th>
              <th scope="col" class="number">
                {t.overview.grossVolume}
              </th>
              <th scope="col" class="number">
                {t.overview.refunded}
              </th>
              <th scope="col" class="number">
                {t.overview.net}
              </th>
            </tr>
          </thead>
          <tbody>
            {currency.days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{day.date}</th>
                <td class="number">{money(day.gross_volume)}</td>
                <td class="number">{money(day.refunded)}</td>
                <td class="number">{money(day.net)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
