/** The sandbox's wallet script, for a session that asks for it where no wallet is on the page: what its button needs first. */
import type { PublicSession } from '../../contracts';
import { loadScriptOnce, resolveScriptUrl } from './api';
import { paymentsApi } from './readiness';

export const hasPaymentsClient = () => !!paymentsApi()?.PaymentsClient;

/** Loads it if the session needs it (`meanwhile` runs while it downloads); throws if it cannot be had. */
export async function loadSandboxWallet(s: PublicSession, apiBase: string, nonce: string | undefined, meanwhile: () => void): Promise<void> {
  if (s.wallet.environment !== 'SANDBOX' || hasPaymentsClient()) return;
  if (!s.wallet.sandbox_script) throw new Error('The session names no sandbox wallet script.');
  // Asked for before the summary is drawn, as pay.js is (wallet-button.ts): the amount's formatting runs while it downloads.
  const walletScript = loadScriptOnce(resolveScriptUrl(s.wallet.sandbox_script, apiBase), nonce);
  meanwhile();
  await walletScript;
  if (!hasPaymentsClient()) throw new Error('The sandbox wallet did not define PaymentsClient.');
}
