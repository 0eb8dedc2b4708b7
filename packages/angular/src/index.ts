/** `@wallet-checkout/angular`: the standalone `<wallet-checkout-widget>` component (`WalletCheckoutComponent`). */
export { WalletCheckoutComponent } from './wallet-checkout.component';
export type { CheckoutEventDetails, CheckoutErrorCode, ControllerStatus } from '@wallet-checkout/js';
