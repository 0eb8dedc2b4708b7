/**
 * The languages Google draws its translated button in (ButtonOptions' `buttonLocale`,
 * developers.google.com/pay/api/web/reference/request-objects#ButtonOptions). Plain data, free
 * of zod: the widget holds its options to it (web/checkout/button-options.ts) and the sandbox
 * wallet refuses any other, as Google does (google-pay-rules.ts, GP24).
 */
export const BUTTON_LOCALES: readonly string[] = ['ar', 'bg', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fi', 'fr', 'hr', 'id', 'it', 'ja', 'ko', 'ms', 'nl', 'no', 'pl', 'pt', 'ru', 'sk', 'sl', 'sr', 'sv', 'th', 'tr', 'uk', 'zh'];
