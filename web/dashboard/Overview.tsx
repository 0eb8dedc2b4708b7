/**
 * Overview: a period's money per currency (gross volume, refunded, net), its success rate, each day's
 * chart, and the payments by status and declines by reason, each figure a link to the payments list it
 * is summed from (docs/dashboard.md, "Overview").
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DashboardOverview, OverviewCurrency } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import { api } from './api';
import { disputesHref } from './Disputes';
import { DailyChart } from './DailyChart';
import { statusWord } from './format';
import { fill, type DashboardMessages } from './locales';
import type { PageProps } from './page';
import { paymentsHref } from './payments-query';
import { browserTimeZone, type Period, PERIOD_PRESETS, type PeriodPreset, presetPeriod } from './periods';

export function Overview({ t, locale, fail }: PageProps) {
  const [preset, setPreset] = useState<PeriodPreset>('last_30_days');
  const [period, setPeriod] = useState<Period>(() => presetPeriod('last_30_days', new Date()));
  const [overview, setOverview] = useState<DashboardOverview>();

  useEffect(() => {
    // A reply for a period the merchant has since left is dropped, however late it comes.
    let wanted = true;
    void api.overview({ ...period, time_zone: browserTimeZone() }).then((reply) => wanted && setOverview(reply), fail);
    return () => {
      wanted = false;
    };
  }, [period]);

  function choose(next: PeriodPreset) {
    setPreset(next);
    if (next !== 'custom') setPeriod(presetPeriod(next, new Date()));
  }

  function applyCustom(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const from = String(form.get('from') ?? '');
    const to = String(form.get('to') ?? '');
    if (from && to) setPeriod(from <= to ? { from, to } : { from: to, to: from });
  }

  // The previous period's figures are not shown as this one's while it loads.
  const shown = overview && overview.from === period.from && overview.to === period.to ? overview : undefined;
  return (
    <section aria-labelledby="overview-heading">
      <h1 id="overview-heading">{t.overview.heading}</h1>
      <form class="filters" onSubmit={applyCustom}>
        <label>
          {t.overview.period}
          <select name="preset" value={preset} onChange={(event) => choose((event.currentTarget as HTMLSelectElement).value as PeriodPreset)}>
            {PERIOD_PRESETS.map((name) => (
              <option value={name}>{t.overview.periods[name]}</option>
            ))}
          </select>
        </label>
        {preset === 'custom' && (
          <>
            <label>
              {t.overview.from}
              <input name="from" type="date" required defaultValue={period.from} />
            </label>
            <label>
              {t.overview.to}
              <input name="to" type="date" required defaultValue={period.to} />
            </label>
            <button type="submit">{t.overview.apply}</button>
          </>
        )}
      </form>
      <p class="hint" aria-live="polite">
        {fill(t.overview.range, { from: period.from, to: period.to, zone: browserTimeZone() })}
      </p>
      {shown && <Figures t={t} locale={locale} overview={shown} />}
    </section>
  );
}

function Figures({ t, locale, overview }: { t: DashboardMessages; locale: string; overview: DashboardOverview }) {
  const period = { from: overview.from, to: overview.to };
  if (overview.currencies.length === 0) return <p>{t.overview.none}</p>;
  return (
    <>
      {overview.currencies.map((currency) => (
        <CurrencyFigures key={currency.currency} t={t} locale={locale} currency={currency} period={period} />
      ))}
      <div class="counts">
        <CountTable
          caption={t.overview.byStatus}
          heading={[t.overview.status, t.overview.count]}
          locale={locale}
          rows={overview.statuses.map((row) => ({ key: row.status, attribute: { 'data-status': row.status }, label: statusWord(t, row.status), count: row.count, href: paymentsHref({ status: row.status, ...period }) }))}
        />
        <CountTable
          caption={t.overview.byDecline}
          heading={[t.overview.reason, t.overview.count]}
          none={t.overview.noDecline}
          locale={locale}
          rows={overview.decline_codes.map((row) => ({
            key: row.code,
            attribute: { 'data-decline-code': row.code },
            label: <code>{row.code}</code>,
            count: row.count,
            href: paymentsHref({ status: 'declined', ...period, decline_code: row.code }),
          }))}
        />
        <CountTable
          caption={t.overview.byDisputeStatus}
          heading={[t.overview.status, t.overview.disputeCount]}
          none={t.overview.noDispute}
          locale={locale}
          rows={overview.dispute_statuses.map((row) => ({ key: row.status, attribute: { 'data-dispute-status': row.status }, label: t.disputes.statuses[row.status], count: row.count, href: disputesHref(row.status) }))}
        />
      </div>
    </>
  );
}

function CurrencyFigures({ t, locale, currency, period }: { t: DashboardMessages; locale: string; currency: OverviewCurrency; period: { from: string; to: string } }) {
  const money = (amount: number) => formatAmount(amount, currency.currency, currency.currency_exponent, locale);
  const { outcomes } = currency;
  const rate = outcomes.success_rate === null ? '—' : new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(outcomes.success_rate);
  // The money was taken by the period's payments, whatever their status now: the list of the period, unfiltered.
  const ofPeriod = paymentsHref(period);
  return (
    <article class="currency" aria-labelledby={`currency-${currency.currency}`} data-currency={currency.currency}>
      <h2 id={`currency-${currency.currency}`}>{currency.currency}</h2>
      <dl class="figures">
        <div>
          <dt>{t.overview.grossVolume}</dt>
          <dd data-figure="gross_volume">
            <a href={ofPeriod}>{money(currency.gross_volume)}</a>
          </dd>
        </div>
        <div>
          <dt>{t.overview.refunded}</dt>
          <dd data-figure="refunded">
            <a href={ofPeriod}>{money(currency.refunded)}</a>
            <small>
              <a href={paymentsHref({ status: 'refunded', ...period })}>{t.overview.refundedInFull}</a> · <a href={paymentsHref({ status: 'partially_refunded', ...period })}>{t.overview.refundedInPart}</a>
            </small>
          </dd>
        </div>
        <div>
          <dt>{t.overview.net}</dt>
          <dd data-figure="net">
            <a href={ofPeriod}>{money(currency.net)}</a>
          </dd>
        </div>
        <div>
          <dt>{t.overview.disputed}</dt>
          <dd data-figure="disputed">
            <a href="#/disputes">{money(currency.disputed)}</a>
            <small>{fill(t.overview.disputes, { count: currency.disputes.toLocaleString(locale) })}</small>
          </dd>
        </div>
        <div>
          <dt>{t.overview.successRate}</dt>
          <dd data-figure="success_rate">
            <a href={paymentsHref({ status: 'succeeded', ...period })}>{rate}</a>
            <small>{fill(t.overview.outcomes, { succeeded: outcomes.succeeded.toLocaleString(locale), total: outcomes.reached_outcome.toLocaleString(locale) })}</small>
          </dd>
        </div>
      </dl>
      <DailyChart t={t} locale={locale} currency={currency} />
    </article>
  );
}

interface CountRow {
  key: string;
  /** The row's data attribute, which names what it counts for a test or a style. */
  attribute: Record<`data-${string}`, string>;
  label: ComponentChildren;
  count: number;
  /** The list the count is of. */
  href: string;
}

/** A table of counts, each a link to the list it counts; `none` says so when there is no row (omitted: an empty table). */
function CountTable({ caption, heading, none, locale, rows }: { caption: string; heading: [string, string]; none?: string; locale: string; rows: CountRow[] }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{heading[0]}</th>
          <th scope="col" class="number">
            {heading[1]}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && none && (
          <tr>
            <td colSpan={2}>{none}</td>
          </tr>
        )}
        {rows.map((row) => (
          <tr key={row.key} {...row.attribute}>
            <th scope="row">{row.label}</th>
            <td class="number">
              <a href={row.href}>{row.count.toLocaleString(locale)}</a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
