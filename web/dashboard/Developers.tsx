/** Developers: webhook endpoints and their deliveries, the secret key, the checkout configuration, and (platform mode) the origins' verification. */
import { useEffect, useState } from 'preact/hooks';
import type { DashboardEndpoint, DashboardSettings, DeliveryView, OriginVerification, OriginVerificationList, ThreeDsPolicy } from '../../contracts';
import { ORIGIN_VERIFICATION_LAPSE_AFTER } from '../../contracts/origin-verification-rules';
import { api, DashboardError } from './api';
import { dateTime } from './format';
import type { PageProps } from './page';
import { type DashboardMessages, fill } from './locales';

/** The overlaps the page offers for a key roll, in seconds (the API takes 0 to 7 days). */
const OVERLAPS = { now: 0, hour: 3600, day: 86_400, week: 604_800 } as const;

export function Developers(props: PageProps) {
  const { t } = props;
  // Saving the allowed origins changes which origins there are to verify: the list is read again.
  const [originsVersion, setOriginsVersion] = useState(0);
  return (
    <>
      <h1>{t.nav.developers}</h1>
      <Endpoints {...props} />
      <SecretKey {...props} />
      <Sessions {...props} />
      <Settings {...props} onSaved={() => setOriginsVersion((version) => version + 1)} />
      <Origins key={originsVersion} {...props} />
    </>
  );
}

/** A secret shown once, selectable to copy. */
function OnceSecret({ label, secret }: { label: string; secret: string }) {
  return (
    <p class="once" role="status">
      {label} <code data-testid="secret">{secret}</code>
    </p>
  );
}

function Endpoints({ t, locale, fail }: PageProps) {
  const [endpoints, setEndpoints] = useState<DashboardEndpoint[]>();
  const [secret, setSecret] = useState('');
  const [notice, setNotice] = useState('');
  const load = () => api.endpoints().then((list) => setEndpoints(list.data), fail);
  useEffect(() => void load(), []);

  const act = async (action: () => Promise<unknown>, shown = '') => {
    try {
      await action();
      setNotice(shown);
      await load();
    } catch (error) {
      fail(error);
    }
  };

  async function add(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const url = (form.elements.namedItem('url') as HTMLInputElement).value.trim();
    await act(async () => {
      setSecret((await api.addEndpoint(url)).secret);
      form.reset();
    });
  }

  return (
    <section aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading">{t.developers.endpoints}</h2>
      <form class="inline" onSubmit={(event) => void add(event)}>
        <label for="endpoint-url">{t.developers.url}</label>
        <input id="endpoint-url" name="url" type="url" required size={40} placeholder="https://" />
        <button type="submit">{t.developers.add}</button>
      </form>
      {secret && <OnceSecret label={t.developers.secretOnce} secret={secret} />}
      {notice && <p role="status">{notice}</p>}
      {endpoints?.map((endpoint) => (
        <article class="endpoint" aria-label={endpoint.url} key={endpoint.id}>
          <h3>
            <code>{endpoint.url}</code>
          </h3>
          <div class="actions">
            <button type="button" class="secondary" onClick={() => void act(async () => setSecret((await api.rollEndpointSecret(endpoint.id)).secret))}>
              {t.developers.rollSecret}
            </button>
            <button type="button" class="danger" onClick={() => void act(() => api.removeEndpoint(endpoint.id))}>
              {t.developers.remove}
            </button>
          </div>
          <Deliveries t={t} locale={locale} deliveries={endpoint.recent_deliveries} onRedeliver={(eventId) => void act(() => api.redeliver(eventId), t.developers.redelivered)} />
        </article>
      ))}
    </section>
  );
}

function Deliveries({ t, locale, deliveries, onRedeliver }: { t: DashboardMessages; locale: string; deliveries: DeliveryView[]; onRedeliver(eventId: string): void }) {
  if (deliveries.length === 0) return <p>{t.developers.noDeliveries}</p>;
  return (
    <table>
      <caption>{t.developers.deliveries}</caption>
      <thead>
        <tr>
          <th scope="col">{t.developers.event}</th>
          <th scope="col">{t.payments.status}</th>
          <th scope="col">{t.developers.result}</th>
          <th scope="col">
            <span class="visually-hidden">{t.developers.redeliver}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.id} data-delivery-status={delivery.status}>
            <td>
              {t.events[delivery.event_type]} <small>{dateTime(delivery.updated, locale, 'second')}</small>
            </td>
            <td>{t.deliveryStatuses[delivery.status as keyof DashboardMessages['deliveryStatuses']] ?? delivery.status}</td>
            <td data-testid="delivery-result">{[delivery.last_status_code && `HTTP ${delivery.last_status_code}`, delivery.last_error].filter(Boolean).join(' · ') || '—'}</td>
            <td>
              <button type="button" class="secondary" aria-label={`${t.developers.redeliver}: ${t.events[delivery.event_type]}`} onClick={() => onRedeliver(delivery.event_id)}>
                {t.developers.redeliver}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The key roll asks for a live key of the app again (re-authentication: a stolen cookie alone rolls
 * nothing); the field is cleared once sent, whatever the answer, and the key kept nowhere.
 */
function SecretKey({ t, fail }: PageProps) {
  const [secret, setSecret] = useState('');
  const [refused, setRefused] = useState(false);
  async function roll(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const overlap = form.elements.namedItem('overlap') as HTMLSelectElement;
    const current = form.elements.namedItem('current_key') as HTMLInputElement;
    const key = current.value.trim();
    current.value = '';
    setRefused(false);
    try {
      setSecret((await api.rollKey(OVERLAPS[overlap.value as keyof typeof OVERLAPS], key)).secret);
    } catch (error) {
      if (error instanceof DashboardError && error.code === 'reauthentication_failed') setRefused(true);
      else fail(error);
    }
  }
  return (
    <section aria-labelledby="key-heading">
      <h2 id="key-heading">{t.developers.keys}</h2>
      <form class="inline" onSubmit={(event) => void roll(event)}>
        <label for="current-key">{t.developers.currentKey}</label>
        <input id="current-key" name="current_key" type="password" autocomplete="off" spellcheck={false} required aria-describedby="current-key-hint" />
        <label for="overlap">{t.developers.overlap}</label>
        <select id="overlap" name="overlap">
          {(Object.keys(OVERLAPS) as (keyof typeof OVERLAPS)[]).map((name) => (
            <option value={name} selected={name === 'day'}>
              {t.developers.overlaps[name]}
            </option>
          ))}
        </select>
        <button type="submit">{t.developers.rollKey}</button>
      </form>
      <p id="current-key-hint" class="hint">
        {t.developers.currentKeyHint}
      </p>
      {refused && (
        <p role="alert" class="problem">
          {t.developers.reauthFailed}
        </p>
      )}
      {secret && <OnceSecret label={t.developers.keyOnce} secret={secret} />}
    </section>
  );
}

/** Sign out everywhere: every dashboard session of the app ends, this one too (a stolen cookie's with them). */
function Sessions({ t, fail, signedOut }: PageProps) {
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t.developers.sessions}</h2>
      <p id="sessions-hint" class="hint">
        {t.developers.sessionsHint}
      </p>
      <button type="button" class="danger" aria-describedby="sessions-hint" onClick={() => void api.signOutEverywhere().then(signedOut, fail)}>
        {t.developers.signOutEverywhere}
      </button>
    </section>
  );
}

function Settings({ t, fail, onSaved }: PageProps & { onSaved(): void }) {
  const [settings, setSettings] = useState<DashboardSettings>();
  const [saved, setSaved] = useState(false);
  useEffect(() => void api.settings().then(setSettings, fail), []);
  if (!settings) return null;

  async function save(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const origins = (form.elements.namedItem('origins') as HTMLTextAreaElement).value.split('\n').map((line) => line.trim()).filter(Boolean);
    const threeDs = (form.elements.namedItem('three_ds') as HTMLSelectElement).value as ThreeDsPolicy;
    try {
      setSettings(await api.saveSettings({ allowed_origins: origins, three_ds: threeDs }));
      setSaved(true);
      onSaved();
    } catch (error) {
      setSaved(false);
      fail(error);
    }
  }

  const fixed: [string, string][] = [
    ['environment', settings.environment],
    ['decryption_mode', settings.decryption_mode],
    ['google_pay_mode', settings.google_pay_mode],
    ['card_networks', settings.card_networks.join(', ')],
    ['auth_methods', settings.auth_methods.join(', ')],
  ];
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t.developers.settings}</h2>
      <form class="stacked" onSubmit={(event) => void save(event)}>
        <label for="origins">{t.developers.allowedOrigins}</label>
        <textarea id="origins" name="origins" rows={3} cols={40} aria-describedby="origins-hint">
          {settings.allowed_origins.join('\n')}
        </textarea>
        <p id="origins-hint" class="hint">
          {t.developers.allowedOriginsHint}
        </p>
        <label for="three-ds">{t.developers.threeDs}</label>
        <select id="three-ds" name="three_ds">
          {(Object.keys(t.threeDsPolicies) as ThreeDsPolicy[]).map((policy) => (
            <option value={policy} selected={policy === settings.three_ds}>
              {t.threeDsPolicies[policy]}
            </option>
          ))}
        </select>
        <button type="submit">{t.developers.save}</button>
        {saved && <p role="status">{t.developers.saved}</p>}
      </form>
      <h3>{t.developers.readOnly}</h3>
      <dl class="facts">
        {fixed.map(([name, value]) => (
          <>
            <dt>
              <code>{name}</code>
            </dt>
            <dd>{value}</dd>
          </>
        ))}
      </dl>
    </section>
  );
}

/**
 * Platform mode's proof of each allowed origin (docs/platform.md): shown only for an app in platform
 * mode, whose Google Pay requests are signed for verified origins only. Each origin with its state, the
 * file to publish and its token, the checks' results, and "Verify now".
 */
function Origins({ t, locale, fail }: PageProps) {
  const [list, setList] = useState<OriginVerificationList>();
  const [checking, setChecking] = useState('');
  useEffect(() => void api.origins().then(setList, fail), []);
  if (!list?.required) return null;
  const v = t.verification;
  const when = (at: number | null) => (at === null ? v.never : dateTime(at, locale));

  async function verify(origin: string) {
    setChecking(origin);
    try {
      const checked = await api.verifyOrigin(origin);
      setList((current) => current && { ...current, data: current.data.map((item) => (item.origin === origin ? checked : item)) });
    } catch (error) {
      fail(error);
    } finally {
      setChecking('');
    }
  }

  const facts = (item: OriginVerification): [string, string, string][] => [
    [v.file, item.file_url, 'origin-file'],
    [v.token, item.token, 'origin-token'],
    ...(item.status === 'loopback'
      ? []
      : ([
          [v.verifiedAt, when(item.verified_at), 'origin-verified-at'],
          [v.lastChecked, when(item.last_checked), 'origin-last-checked'],
          ...(item.next_check === null ? [] : [[v.nextCheck, when(item.next_check), 'origin-next-check']]),
          ...(item.last_failure === null ? [] : [[v.lastFailure, `${item.last_failure} (${fill(v.failures, { n: item.failed_checks, max: ORIGIN_VERIFICATION_LAPSE_AFTER })})`, 'origin-failure']]),
        ] as [string, string, string][])),
  ];

  return (
    <section aria-labelledby="origins-heading">
      <h2 id="origins-heading">{v.heading}</h2>
      <p class="hint">{v.intro}</p>
      {list.data.map((item) => (
        <article class="endpoint" aria-label={item.origin} key={item.origin} data-origin-status={item.status}>
          <h3>
            <code>{item.origin}</code> <span class={`status status-origin-${item.status}`}>{v.statuses[item.status]}</span>
          </h3>
          <dl class="facts">
            {facts(item).map(([name, value, testId]) => (
              <>
                <dt>{name}</dt>
                <dd data-testid={testId}>{testId === 'origin-file' || testId === 'origin-token' ? <code>{value}</code> : value}</dd>
              </>
            ))}
          </dl>
          {item.status !== 'loopback' && (
            <button type="button" class="secondary" disabled={checking === item.origin} aria-label={`${v.verifyNow}: ${item.origin}`} onClick={() => void verify(item.origin)}>
              {v.verifyNow}
            </button>
          )}
        </article>
      ))}
    </section>
  );
}
