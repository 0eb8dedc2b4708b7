/**
 * The merchant's dashboard: sign-in, the overview (where a merchant lands),
 * payments (list, a payment's page and its actions), saved cards, disputes
 * (list, a dispute's page and its evidence) and developers (webhooks, key,
 * checkout configuration). Pages are hash routes (#/overview,
 * #/payments?status=&from=&to=, #/payments/<id>, #/saved-cards, #/disputes,
 * #/disputes/<id>, #/developers), so the server
 * serves one page and a reload stays where the merchant was.
 */
import { useEffect, useState } from 'preact/hooks';
import type { DashboardSignedIn } from '../../contracts';
import { api, DashboardError } from './api';
import { type DashboardMessages, fill } from './locales';
import { Developers } from './Developers';
import { Overview } from './Overview';
import type { PageProps } from './page';
import { PaymentPage } from './PaymentPage';
import { Payments } from './Payments';
import { SavedCards } from './SavedCards';
import { Disputes } from './Disputes';
import { DisputePage } from './DisputePage';

type Route =
  | { page: 'overview' }
  | { page: 'payments'; query: string }
  | { page: 'payment'; id: string }
  | { page: 'saved-cards' }
  | { page: 'disputes'; status: string }
  | { page: 'dispute'; id: string }
  | { page: 'developers' };

function routeOf(hash: string): Route {
  const payment = /^#\/payments\/([\w-]+)$/.exec(hash);
  if (payment) return { page: 'payment', id: payment[1]! };
  // The list's query (payments-query.ts) is part of its route: a link with other filters opens a list of its own.
  const payments = /^#\/payments(\?.*)?$/.exec(hash);
  if (payments) return { page: 'payments', query: payments[1] ?? '' };
  if (hash === '#/saved-cards') return { page: 'saved-cards' };
  const dispute = /^#\/disputes\/([\w-]+)$/.exec(hash);
  if (dispute) return { page: 'dispute', id: dispute[1]! };
  const disputes = /^#\/disputes(?:\?status=(\w+))?$/.exec(hash);
  if (disputes) return { page: 'disputes', status: disputes[1] ?? '' };
  return hash === '#/developers' ? { page: 'developers' } : { page: 'overview' };
}

export function Dashboard({ t, locale }: { t: DashboardMessages; locale: string }) {
  const [app, setApp] = useState<DashboardSignedIn['app'] | null | undefined>(undefined);
  const [route, setRoute] = useState(() => routeOf(location.hash));
  const [problem, setProblem] = useState('');

  useEffect(() => {
    void api.current().then((current) => setApp(current ?? null), () => setApp(null));
    const onHash = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    document.title = app ? `${t.title} · ${app.name}` : t.title;
  }, [app, t]);

  const fail = (error: unknown) => {
    if (error instanceof DashboardError && error.status === 401) {
      setApp(null);
      setProblem(t.expired);
    } else setProblem(fill(t.error, { message: error instanceof Error ? error.message : String(error) }));
  };

  if (app === undefined) return null;
  if (app === null) return <SignIn t={t} notice={problem} onSignedIn={(signedIn) => (setProblem(''), setApp(signedIn))} />;

  const page: PageProps = { t, locale, fail: (error) => fail(error), signedOut: () => setApp(null) };
  return (
    <div class="shell">
      <header>
        <span class="app-name">{app.name}</span>
        <nav aria-label={t.title}>
          <a href="#/overview" aria-current={route.page === 'overview' ? 'page' : undefined}>
            {t.overview.heading}
          </a>
          <a href="#/payments" aria-current={route.page === 'payments' || route.page === 'payment' ? 'page' : undefined}>
            {t.nav.payments}
          </a>
          <a href="#/saved-cards" aria-current={route.page === 'saved-cards' ? 'page' : undefined}>
            {t.nav.savedCards}
          </a>
          <a href="#/disputes" aria-current={route.page === 'disputes' || route.page === 'dispute' ? 'page' : undefined}>
            {t.disputes.nav}
          </a>
          <a href="#/developers" aria-current={route.page === 'developers' ? 'page' : undefined}>
            {t.nav.developers}
          </a>
        </nav>
        <button type="button" class="secondary" onClick={() => void api.signOut().then(() => setApp(null), fail)}>
          {t.signOut}
        </button>
      </header>
      <main>
        {problem && (
          <p role="alert" class="problem">
            {problem}
          </p>
        )}
        {route.page === 'overview' && <Overview {...page} />}
        {route.page === 'payments' && <Payments key={route.query} {...page} />}
        {route.page === 'payment' && <PaymentPage key={route.id} id={route.id} {...page} />}
        {route.page === 'saved-cards' && <SavedCards {...page} />}
        {route.page === 'disputes' && <Disputes key={route.status} status={route.status} {...page} />}
        {route.page === 'dispute' && <DisputePage key={route.id} id={route.id} {...page} />}
        {route.page === 'developers' && <Developers {...page} />}
      </main>
    </div>
  );
}

function SignIn({ t, notice, onSignedIn }: { t: DashboardMessages; notice: string; onSignedIn(app: DashboardSignedIn['app']): void }) {
  const [refused, setRefused] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = form.elements.namedItem('secret_key') as HTMLInputElement;
    setBusy(true);
    try {
      const app = await api.signIn(input.value.trim());
      // The key is not kept: not in state, not in the field.
      input.value = '';
      onSignedIn(app);
    } catch {
      setRefused(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="sign-in">
      <h1>{t.signIn.heading}</h1>
      {notice && <p role="status">{notice}</p>}
      <form onSubmit={(event) => void submit(event)}>
        <label for="secret-key">{t.signIn.key}</label>
        <input id="secret-key" name="secret_key" type="password" autocomplete="off" spellcheck={false} required aria-describedby="secret-key-hint" />
        <p id="secret-key-hint" class="hint">
          {t.signIn.keyHint}
        </p>
        <button type="submit" disabled={busy}>
          {t.signIn.submit}
        </button>
        {refused && (
          <p role="alert" class="problem">
            {t.signIn.failed}
          </p>
        )}
      </form>
    </main>
  );
}
