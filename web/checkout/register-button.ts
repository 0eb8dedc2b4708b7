/**
 * Registers <google-pay-button>. The package calls customElements.define()
 * unconditionally, which throws if a second copy of this bundle (two script
 * tags, or checkout.js next to checkout.mjs) already registered it; the guard
 * turns that second definition into a no-op.
 */
import { restoreDefine } from './define-guard';
import '@google-pay/button-element';

restoreDefine();
