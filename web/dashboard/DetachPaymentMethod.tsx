/**
 * A kept card's Detach (docs/saved-cards.md): the confirmation, then the dashboard API's detach (CSRF token and an
 * Idempotency-Key, api.ts). A payment's saved card and each row of Saved cards use it.
 */
import { useState } from 'preact/hooks';
import type { PaymentMethod } from '../../contracts';
import { api } from './api';
import { Confirm } from './Confirm';
import type { PageProps } from './page';

export function DetachPaymentMethod({ t, fail, id, name, onDetached }: Pick<PageProps, 't' | 'fail'> & { id: string; /** The button's accessible name when "Detach" alone is not enough (a row of many). */ name?: string; onDetached(method: PaymentMethod): void }) {
  const [asking, setAsking] = useState(false);

  async function detach() {
    setAsking(false);
    try {
      onDetached(await api.detachPaymentMethod(id));
    } catch (error) {
      fail(error);
    }
  }

  return (
    <>
      <button type="button" class="secondary" aria-label={name} onClick={() => setAsking(true)}>
        {t.savedCard.detach}
      </button>
      {asking && <Confirm t={t} question={t.savedCard.confirmDetach} onConfirm={() => void detach()} onCancel={() => setAsking(false)} />}
    </>
  );
}

