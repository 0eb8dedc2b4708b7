/**
 * The widget's stylesheet, injected into its shadow root. A page restyles the
 * widget only through these custom properties (they inherit into the shadow
 * root; nothing else crosses it):
 *   --wc-font, --wc-text, --wc-muted, --wc-surface, --wc-border, --wc-accent,
 *   --wc-danger, --wc-success, --wc-radius
 * Each defaults per theme; the defaults meet WCAG AA contrast on their surface.
 */
export const CSS = `
:host { all: initial; display: block; contain: content; }
:host([hidden]) { display: none; }
.wc {
  --_text: var(--wc-text, #1f1f1f); --_muted: var(--wc-muted, #5f6368); --_surface: var(--wc-surface, #fff);
  --_border: var(--wc-border, #dadce0); --_accent: var(--wc-accent, #1a73e8);
  --_danger: var(--wc-danger, #b3261e); --_success: var(--wc-success, #137333);
  box-sizing: border-box; display: flex; flex-direction: column; gap: 12px;
  padding: 16px; border: 1px solid var(--_border); border-radius: var(--wc-radius, 12px);
  background: var(--_surface); color: var(--_text);
  font-size: 14px; line-height: 1.45; font-family: var(--wc-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
}
:host([data-theme="dark"]) .wc {
  --_text: var(--wc-text, #e8eaed); --_muted: var(--wc-muted, #9aa0a6); --_surface: var(--wc-surface, #202124);
  --_border: var(--wc-border, #5f6368); --_accent: var(--wc-accent, #8ab4f8);
  --_danger: var(--wc-danger, #f28b82); --_success: var(--wc-success, #81c995);
  color-scheme: dark;
}
.summary { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.merchant { color: var(--_muted); }
.amount { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
.desc { margin: 0; color: var(--_muted); flex-basis: 100%; }
.wallet[hidden] { display: none; }
.wallet.fill google-pay-button { display: block; width: 100%; height: 48px; }
.status:empty { display: none; }
.status { margin: 0; }
[data-checkout-state="paid"] .status, [data-checkout-state="captured"] .status { color: var(--_success); font-weight: 600; }
[data-checkout-state="declined"] .status, [data-checkout-state="error"] .status { color: var(--_danger); }
.card { display: block; color: var(--_text); font-weight: 400; }
.spinner { display: inline-block; width: 12px; height: 12px; margin-inline-end: 8px; vertical-align: -1px;
  border: 2px solid var(--_border); border-top-color: var(--_accent); border-radius: 50%;
  animation: wc-spin 0.8s linear infinite; }
@keyframes wc-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
.retry {
  font: inherit; font-weight: 600; cursor: pointer; align-self: flex-start;
  padding: 8px 16px; border-radius: 8px; border: 1px solid var(--_border);
  background: transparent; color: var(--_accent);
}
.retry:hover { background: color-mix(in srgb, var(--_accent) 8%, transparent); }
button:focus-visible, .wallet :focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
`;

/** @google-pay/button-element's own default styles (see WalletButton). */
export const BUTTON_ELEMENT_CSS = 'google-pay-button{display:inline-block}google-pay-button.not-ready{width:0;height:0;overflow:hidden}';
