/** The widget's whole stylesheet, injected into its shadow root. */
export const CSS = `
:host { all: initial; display: block; contain: content; }
:host([hidden]) { display: none; }
.wc {
  --wc-bg: #fff; --wc-fg: #1f1f1f; --wc-muted: #5f6368; --wc-border: #dadce0;
  --wc-accent: #1a73e8; --wc-bad: #b3261e; --wc-good: #137333;
  box-sizing: border-box; display: flex; flex-direction: column; gap: 12px;
  padding: 16px; border: 1px solid var(--wc-border); border-radius: 12px;
  background: var(--wc-bg); color: var(--wc-fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
:host([data-theme="dark"]) .wc {
  --wc-bg: #202124; --wc-fg: #e8eaed; --wc-muted: #9aa0a6; --wc-border: #3c4043;
  --wc-accent: #8ab4f8; --wc-bad: #f28b82; --wc-good: #81c995;
}
.summary { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.merchant { color: var(--wc-muted); }
.amount { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
.desc { margin: 0; color: var(--wc-muted); flex-basis: 100%; }
.wallet[hidden] { display: none; }
.wallet.fill google-pay-button { display: block; width: 100%; height: 48px; }
.status:empty { display: none; }
.status { margin: 0; }
[data-checkout-state="paid"] .status { color: var(--wc-good); font-weight: 600; }
[data-checkout-state="declined"] .status, [data-checkout-state="error"] .status { color: var(--wc-bad); }
.card { display: block; color: var(--wc-fg); font-weight: 400; }
.spinner { display: inline-block; width: 12px; height: 12px; margin-right: 8px; vertical-align: -1px;
  border: 2px solid var(--wc-border); border-top-color: var(--wc-accent); border-radius: 50%;
  animation: wc-spin 0.8s linear infinite; }
@keyframes wc-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
.retry {
  font: inherit; font-weight: 600; cursor: pointer; align-self: flex-start;
  padding: 8px 16px; border-radius: 8px; border: 1px solid var(--wc-border);
  background: transparent; color: var(--wc-accent);
}
.retry:hover { background: color-mix(in srgb, var(--wc-accent) 8%, transparent); }
button:focus-visible, .wallet :focus-visible { outline: 2px solid var(--wc-accent); outline-offset: 2px; }
`;
