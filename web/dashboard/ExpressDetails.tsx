/**
 * What the shopper gave in an express checkout, on a payment's page: the line items, the delivery option,
 * the amount charged when the option made it differ from the session's amount, the shipping address and the
 * e-mail. Each only when the session has it; nothing at all for a checkout that asked for none of it.
 */
import type { DashboardPayment } from '../../contracts';
import { addressText } from './address';
import type { DashboardMessages } from './locales';

export function ExpressDetails({ t, payment, amountText }: { t: DashboardMessages; payment: DashboardPayment; amountText(amount: number): string }) {
  const { line_items: lines, shipping_option: option, amount_charged: charged, shipping_address: shippingAddress, email } = payment;
  const chargedOther = charged !== null && charged !== payment.amount;
  if (lines.length === 0 && !option && !chargedOther && !shippingAddress && email === null) return null;
  return (
    <section aria-labelledby="express-heading" data-testid="express-details">
      <h2 id="express-heading">{t.express.heading}</h2>
      {lines.length > 0 && (
        <table data-testid="line-items">
          <caption>{t.express.lineItems}</caption>
          <thead>
            <tr>
              <th scope="col">{t.express.item}</th>
              <th scope="col" class="number">
                {t.express.amount}
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr>
                <td>{line.label}</td>
                <td class="number">{amountText(line.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <dl class="facts">
        {option && (
          <>
            <dt>{t.express.delivery}</dt>
            <dd data-testid="shipping-option">
              {option.label}: {amountText(option.amount)}
            </dd>
          </>
        )}
        {chargedOther && (
          <>
            <dt>{t.express.charged}</dt>
            <dd data-testid="amount-charged">{amountText(charged)}</dd>
          </>
        )}
        {shippingAddress && (
          <>
            <dt>{t.express.shippingAddress}</dt>
            <dd data-testid="shipping-address">{addressText(t, shippingAddress)}</dd>
          </>
        )}
        {email !== null && (
          <>
            <dt>{t.express.email}</dt>
            <dd data-testid="email">{typeof email === 'string' ? email : t.billing.erased}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
