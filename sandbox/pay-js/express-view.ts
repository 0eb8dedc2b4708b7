/**
 * The express checkout part of the sandbox wallet's sheet, drawn from its model (express.ts): the
 * items and the total, the shipping addresses, the delivery options and the offers, each with the
 * merchant's error against it. Redrawn whole on every change of the model; the shopper's changes
 * go back as `Change`s. Test hooks: web/README.md, "Sandbox wallet sheet".
 */
import { el, formatAddress, priceIn } from './dom';
import { type Change, errorPart, type ExpressModel, type ExpressRequest } from './express';

/** Whether the request asks the sheet for anything beyond a card: requests that do not keep the plain sheet. */
export const isExpress = (request: ExpressRequest & { emailRequired?: unknown }): boolean =>
  Boolean(request.shippingAddressRequired || request.shippingOptionRequired || request.offerInfo || request.transactionInfo?.displayItems?.length || (request.callbackIntents ?? []).some((intent) => intent !== 'PAYMENT_AUTHORIZATION'));

const PENDING_STATUS = ['ESTIMATED', 'NOT_CURRENTLY_KNOWN'];

function orderSummary(model: ExpressModel): HTMLElement {
  const { currencyCode, displayItems = [], totalPrice, totalPriceStatus, totalPriceLabel } = model.transaction;
  const row = (testid: string, label: string, price: Node | string, pending: boolean) =>
    el('tr', { 'data-testid': testid }, el('th', { scope: 'row' }, label), el('td', {}, price, pending && ' (pending)'));
  return el(
    'table',
    { class: 'items', 'data-testid': 'sandbox-order' },
    el('caption', {}, 'Order summary'),
    el(
      'tbody',
      {},
      ...displayItems.map((item) => row('sandbox-item', item.label, priceIn('span', item.price, currencyCode), item.status === 'PENDING')),
      row('sandbox-total', totalPriceLabel ?? 'Total', totalPrice === undefined ? '—' : priceIn('span', totalPrice, currencyCode), PENDING_STATUS.includes(totalPriceStatus)),
    ),
  );
}

function radios(name: string, legend: string, testid: string, error: string | undefined, choices: { id: string; checked: boolean; title: string; detail: Node | string }[]): HTMLElement {
  const errorId = `${testid}-error`;
  return el(
    'fieldset',
    { 'data-testid': testid, ...(error && { 'aria-describedby': errorId }) },
    el('legend', {}, legend),
    ...choices.map((choice) =>
      el('label', {}, el('input', { type: 'radio', name, value: choice.id, ...(choice.checked && { checked: '' }) }), el('span', {}, el('strong', {}, choice.title), choice.detail)),
    ),
    el('p', { class: 'error', role: 'alert', id: errorId, 'data-testid': errorId }, error ?? ''),
  );
}

/** Draws the model into `part`, keeping the shopper's focus on the control it was on, and a code typed but not yet applied. */
export function drawExpress(part: HTMLElement, model: ExpressModel, request: ExpressRequest, onChange: (change: Change) => void): void {
  const focused = part.querySelector<HTMLInputElement>('input:focus');
  // A reply to an earlier change may redraw while the shopper types a code: what they typed stays.
  const typedCode = part.querySelector<HTMLInputElement>('input[name=sandbox-offer-code]')?.value ?? '';
  const errorFor = (where: ReturnType<typeof errorPart>) => (model.error && errorPart(model.error) === where ? model.error.message : undefined);
  const sections: HTMLElement[] = [orderSummary(model)];
  if (request.shippingAddressRequired) {
    sections.push(
      radios('sandbox-shipping-address', 'Ship to', 'sandbox-shipping-addresses', errorFor('address'), model.addresses.map((choice) => ({
        id: choice.id, checked: choice.id === model.addressId, title: choice.label, detail: el('address', {}, formatAddress(choice.address)),
      }))),
    );
  }
  if (request.shippingOptionRequired) {
    sections.push(
      radios('sandbox-shipping-option', 'Delivery', 'sandbox-shipping-options', errorFor('option'), model.options.map((option) => ({
        id: option.id, checked: option.id === model.optionId, title: option.label, detail: el('small', {}, option.description ?? ''),
      }))),
    );
  }
  if (request.offerInfo || (request.callbackIntents ?? []).includes('OFFER')) sections.push(offers(model, request, errorFor('offer'), typedCode, onChange));
  const sheetError = errorFor('sheet');
  if (sheetError) sections.push(el('p', { class: 'error', role: 'alert', 'data-testid': 'sandbox-express-error' }, sheetError));
  part.replaceChildren(...sections);
  part.setAttribute('aria-busy', String(model.pending !== undefined));

  for (const input of part.querySelectorAll<HTMLInputElement>('input[type=radio]')) {
    input.addEventListener('change', () =>
      onChange(input.name === 'sandbox-shipping-address' ? { trigger: 'SHIPPING_ADDRESS', addressId: input.value } : { trigger: 'SHIPPING_OPTION', optionId: input.value }),
    );
  }
  if (focused) part.querySelector<HTMLInputElement>(`input[name="${focused.name}"]${focused.type === 'radio' ? `[value="${focused.value}"]` : ''}`)?.focus();
}

function offers(model: ExpressModel, request: ExpressRequest, error: string | undefined, typedCode: string, onChange: (change: Change) => void): HTMLElement {
  const applied = model.offers.map((offer) => el('li', { 'data-testid': 'sandbox-offer' }, el('strong', {}, offer.redemptionCode), ` ${offer.description}`));
  const section = el('fieldset', { 'data-testid': 'sandbox-offers', ...(error && { 'aria-describedby': 'sandbox-offer-error' }) }, el('legend', {}, 'Promotion code'), el('ul', {}, ...applied));
  // Google's sheet takes codes only from a merchant who answers them (the OFFER intent).
  if ((request.callbackIntents ?? []).includes('OFFER')) {
    const code = el('input', { type: 'text', name: 'sandbox-offer-code', 'data-testid': 'sandbox-offer-code', 'aria-label': 'Promotion code', autocomplete: 'off' });
    code.value = typedCode;
    const apply = el('button', { type: 'button', 'data-testid': 'sandbox-offer-apply' }, 'Apply');
    const submit = () => {
      const entered = code.value.trim();
      if (!entered) return;
      // Applied, the code leaves the box: the redraw this change makes starts it empty.
      code.value = '';
      onChange({ trigger: 'OFFER', code: entered });
    };
    apply.addEventListener('click', submit);
    code.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') submit();
    });
    section.append(el('div', { class: 'code' }, code, apply));
  }
  section.append(el('p', { class: 'error', role: 'alert', id: 'sandbox-offer-error', 'data-testid': 'sandbox-offer-error' }, error ?? ''));
  return section;
}
