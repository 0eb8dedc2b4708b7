/**
 * The widget gallery (`/demo/gallery`): every state a shopper can meet, in the
 * light and dark themes and in each language, side by side; `?locale=<tag>` (the
 * page's picker) shows every state in one of the widget's languages. Each widget is the
 * real checkout.js, mounted by a plain script tag; its `data-api-base` points
 * at the tiny fake API below, whose sessions are frozen in one state. So the
 * shipped bundle has no gallery-only code path, and nothing here is charged.
 *
 * A session id names its scenario: `cs_gallery-<state>-<currency>`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { type BodyRules, KB } from '../../common/http/body';
import { errorBody, statusFor } from '../../common/http/errors';
import { readManifest } from '../../common/http/static';
import { type PaymentOutcome, type PublicSession, SESSION_LIFETIME, sessionExpired, type SessionStatus } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import { buildPaymentDataRequest, type PaymentRequestApp } from '../../contracts/payment-data-request';
import type { CheckoutState } from '../../web/checkout/types';

const template = readFileSync(fileURLToPath(new URL('../../demo/pages/gallery.html', import.meta.url)), 'utf8');

export interface GalleryOptions {
  /** Where checkout.js is served (this backend's own origin). */
  checkoutOrigin: () => string;
  /** Where the sandbox wallet is served: this backend (embedded) or a standalone sandbox. */
  sandboxOrigin: () => string;
  /** The sandbox wallet mints tokens only for this gateway. */
  gatewayName: string;
}

const AMOUNTS: Record<string, number> = { USD: 2400, EUR: 2400, JPY: 2400, KWD: 24500 };
/** The currency each language is shown with where it is not the euro: KWD has three decimals, JPY none. */
const CURRENCY_OF: Partial<Record<string, string>> = { en: 'USD', ar: 'KWD', ja: 'JPY' };
/** A language's name in English, for the captions ("Arabic", "European Portuguese", "Serbian (Latin)"), not its tag. */
const languageNames = new Intl.DisplayNames('en', { type: 'language' });

/** The languages the built widget speaks: English, and each whose chunk the build made (vite.config.ts). */
export function builtLanguages(): string[] {
  const chunked = Object.keys(readManifest()).flatMap((file) => /^checkout-chunk-locale-(.+)\.js$/.exec(file)?.[1] ?? []);
  return ['en', ...chunked.filter((language) => language !== 'index')].sort();
}
const CARD = { network: 'VISA', last4: '4242', auth_method: 'CRYPTOGRAM_3DS', exp_month: 12, exp_year: 2030 } as const;
const paid: PaymentOutcome = { status: 'succeeded', charge_id: 'ch_gallery', card: CARD, failure_code: null, failure_message: null };
/** A hold's payment: the outcome stays `authorized` after the merchant captures or releases it; the session's status moves on. */
const held: PaymentOutcome = { ...paid, status: 'authorized' };

/**
 * The widget's states the gallery shows: every row of its state table (web/checkout/states.ts) but
 * `authenticating`, a modal dialog over the whole page (the rest of the page goes inert under it),
 * which the 3-D Secure browser tests show instead.
 */
export type GalleryState = Exclude<CheckoutState, 'authenticating'>;

/** Per state: the session as the fake API shows it. `hold`: that call never answers, so the widget stays put. */
const SCENARIOS: Record<GalleryState, { status: SessionStatus; outcome?: PaymentOutcome; hold?: 'public' | 'pay'; missing?: true; gone?: true; noUsableCard?: true; sheetCallbacks?: false }> = {
  loading: { status: 'open', hold: 'public' },
  ready: { status: 'open' },
  // As a wallet without callbacks shows it: with them, the sheet stays open over the page while paying.
  processing: { status: 'open', hold: 'pay', sheetCallbacks: false },
  paid: { status: 'succeeded', outcome: paid },
  declined: {
    status: 'declined',
    outcome: { status: 'declined', charge_id: 'ch_gallery', card: CARD, failure_code: 'insufficient_funds', failure_message: 'The card has insufficient funds to complete the purchase.' },
  },
  error: { status: 'open', missing: true },
  // The wallet is asked for a payment method it doesn't offer, so it answers "not ready".
  unavailable: { status: 'open', noUsableCard: true },
  confirming: {
    status: 'pending',
    outcome: { status: 'pending', charge_id: null, card: null, failure_code: null, failure_message: 'We are confirming your payment with the payment service' },
  },
  // Answered as the real API answers an expired session: 410 session_expired.
  expired: { status: 'expired', gone: true },
  captured: { status: 'captured', outcome: held },
  released: { status: 'released', outcome: held },
};

/**
 * A hold's later life (the store captured or released it while the shopper's page was open), in
 * sections of their own at the end of the page: the widgets above keep their places, pixel for pixel.
 */
const SETTLED_HOLDS: readonly GalleryState[] = ['captured', 'released'];

/** Every state the gallery shows, in its order on the page. */
export const GALLERY_STATES = Object.keys(SCENARIOS) as GalleryState[];

/** The gallery has no stored app: the fields a payment request is built from, built as the backend builds a real session's. */
const galleryApp: PaymentRequestApp = {
  id: 'app_gallery', name: 'Demo Coffee Roasters', merchantId: 'gallery', googleMerchantId: undefined, decryptionMode: 'gateway', googlePayMode: 'merchant',
  authMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], cardNetworks: ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'],
};

/** The gallery's stand-in for the pay route takes the widget's PaymentData (and reads none of it). */
export const galleryBodies = {
  'POST /demo/gallery/api/sessions/:id/pay': { body: 'required', limit: 32 * KB },
} as const satisfies BodyRules;

export function galleryRoutes(options: GalleryOptions): express.Router {
  const router = express.Router();

  router.get('/demo/gallery', (req, res) => {
    const src = `${options.checkoutOrigin()}/checkout.js`;
    const languages = builtLanguages();
    // Only a language of the list reaches the page (it is written into attributes).
    const chosen = languages.find((language) => language === req.query.locale);
    const inChosen = chosen ? ` data-locale="${chosen}"` : '';
    /** One captioned widget: a mount element and the script tag of docs/embedding.md. */
    const widget = (id: string, caption: string, state: string, currency: string, attributes = '') =>
      `<figure><figcaption>${caption}</figcaption><div id="${id}"></div></figure>` +
      `<script src="${src}" data-client-secret="cs_gallery-${state}-${currency}_secret_gallery" data-api-base="/demo/gallery" data-target="#${id}" ${attributes} defer></script>`;
    const states = (theme: string, names: readonly string[]) => names.map((state) => widget(`${state}-${theme}`, state, state, 'USD', `data-theme="${theme}"${inChosen}`)).join('\n');
    const shopperStates = GALLERY_STATES.filter((state) => !SETTLED_HOLDS.includes(state));
    const declinedIn = languages
      .map((locale) => {
        const currency = CURRENCY_OF[locale] ?? 'EUR';
        return widget(`declined-${locale}`, `${languageNames.of(locale) ?? locale}, ${currency}`, 'declined', currency, `data-locale="${locale}"`);
      })
      .join('\n');
    const picker = languages.map((language) => `<option value="${language}"${language === chosen ? ' selected' : ''}>${languageNames.of(language) ?? language}</option>`).join('');
    res.type('html').send(
      template
        .replace('{{LIGHT}}', states('light', shopperStates))
        .replace('{{DARK}}', states('dark', shopperStates))
        .replace('{{HOLDS_LIGHT}}', states('light', SETTLED_HOLDS))
        .replace('{{HOLDS_DARK}}', states('dark', SETTLED_HOLDS))
        .replace('{{LANGUAGE_OPTIONS}}', picker)
        .replace('{{LANGUAGES}}', declinedIn)
        .replace('{{CUSTOM}}', widget('ready-custom', 'ready', 'ready', 'JPY') + widget('declined-custom', 'declined', 'declined', 'JPY')),
    );
  });

  /** The scenario of a session id, or undefined (answered 404 like the real API). */
  const scenarioOf = (req: express.Request) => {
    const [, state = '', currency = ''] = String(req.params.id).split('-');
    const scenario = Object.hasOwn(SCENARIOS, state) ? SCENARIOS[state as GalleryState] : undefined;
    return scenario && AMOUNTS[currency] ? { id: String(req.params.id), currency, amount: AMOUNTS[currency], ...scenario } : undefined;
  };
  const view = (s: NonNullable<ReturnType<typeof scenarioOf>>, status: SessionStatus, outcome: PaymentOutcome | null): PublicSession => {
    const built = buildPaymentDataRequest(galleryApp, { id: s.id, amount: s.amount, currency: s.currency, countryCode: 'US' }, { gatewayName: options.gatewayName });
    const { callbackIntents: _inSheet, ...withoutCallbacks } = built;
    const request = s.sheetCallbacks === false ? withoutCallbacks : built;
    return {
      id: s.id, status, amount: s.amount, currency: s.currency, currency_exponent: exponentOf(s.currency), amount_captured: status === 'captured' ? s.amount : null, amount_display: null, description: 'Pour-over coffee kit', merchant_name: galleryApp.name,
      wallet: { environment: 'SANDBOX', sandbox_script: `${options.sandboxOrigin()}/sandbox/wallet.js` },
      // "Unavailable": a request Google would take, for a network the sandbox wallet holds no card of (JCB), so it answers not ready.
      payment_data_request: s.noUsableCard ? { ...request, allowedPaymentMethods: request.allowedPaymentMethods.map((method) => ({ ...method, parameters: { ...method.parameters, allowedCardNetworks: ['JCB'] as never } })) } : request,
      outcome,
      expires_at: Date.now() + SESSION_LIFETIME.defaultMs,
    };
  };
  const notFound = (res: express.Response) => res.status(404).json({ error: { code: 'not_found', message: 'No such checkout session' } });
  const expired = (res: express.Response) => res.status(statusFor(sessionExpired)).json(errorBody(sessionExpired));

  router.get('/demo/gallery/api/sessions/:id/public', (req, res) => {
    const s = scenarioOf(req);
    if (!s || s.missing) return notFound(res);
    if (s.gone) return expired(res);
    if (s.hold === 'public') return; // loading: never answered
    res.json(view(s, s.status, s.outcome ?? null));
  });

  router.post('/demo/gallery/api/sessions/:id/pay', (req, res) => {
    const s = scenarioOf(req);
    if (!s) return notFound(res);
    if (s.hold === 'pay') return; // processing: never answered
    // Every other gallery payment "succeeds" without touching a payment service.
    res.json({ outcome: paid, session: view(s, 'succeeded', paid) });
  });

  return router;
}
