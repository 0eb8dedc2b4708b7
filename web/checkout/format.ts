/** Pure helpers for showing cards. No DOM, safe to unit-test in Node. */

const NETWORK_NAMES: Record<string, string> = {
  AMEX: 'American Express',
  DISCOVER: 'Discover',
  MASTERCARD: 'Mastercard',
  VISA: 'Visa',
};

/** "Visa •••• 4242" */
export function describeCard(card: { network: string; last4: string }): string {
  return `${NETWORK_NAMES[card.network] ?? card.network} •••• ${card.last4}`;
}
