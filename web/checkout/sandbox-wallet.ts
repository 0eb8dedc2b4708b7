/** The sandbox's wallet script, for a session that asks for it where no wallet is on the page: what its button needs first. */
import type { PublicSession } from '../../contracts';
import { loadScriptOnce, resolveScriptUrl } from './api';
import { walletHere } from './readiness';

/**
 * Whether the wallet the session needs is here, loading the sandbox's if it is not (`meanwhile`
 * runs while its script downloads): false if the session names no script, or it cannot be had
 * or defines no PaymentsClient.
 */
export async function sandboxWalletReady(s: PublicSession, apiBase: string, nonce: string | undefined, meanwhile: () => void): Promise<boolean> {
  if (s.wallet.environment !== 'SANDBOX' || walletHere()) return true;
  try {
    // Asked for before the summary is drawn, as pay.js is (wallet-button.ts): the amount's formatting runs while it downloads.
    const walletScript = s.wallet.sandbox_script && loadScriptOnce(resolveScriptUrl(s.wallet.sandbox_script, apiBase), nonce);
    if (!walletScript) return false;
    meanwhile();
    await walletScript;
  } catch {
    return false;
  }
  return walletHere();
}
