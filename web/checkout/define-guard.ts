/** See register-button.ts. Evaluated before '@google-pay/button-element'. */
const registry: CustomElementRegistry | undefined = typeof customElements === 'undefined' ? undefined : customElements;
const original = registry?.define;
const hadOwn = !!registry && Object.prototype.hasOwnProperty.call(registry, 'define');

if (registry && original) {
  registry.define = function (this: CustomElementRegistry, name, ctor, options) {
    if (name === 'google-pay-button' && registry.get(name)) return;
    original.call(this, name, ctor, options);
  };
}

export function restoreDefine(): void {
  if (!registry || !original) return;
  if (hadOwn) registry.define = original;
  else delete (registry as { define?: unknown }).define;
}
