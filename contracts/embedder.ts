/**
 * Iframe mode (docs/embedding.md): the header our checkout frame sends on
 * every call to name the page that embeds it, which the backend checks against
 * the app's allowed origins as it checks `Origin`. No zod here: the widget's
 * bundle imports it.
 */
export const EMBEDDER_ORIGIN_HEADER = 'Checkout-Embedder-Origin';
