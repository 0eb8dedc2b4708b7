/** What the dashboard's shell (Dashboard.tsx) hands each of its pages. */
import type { DashboardMessages } from './locales';

export interface PageProps {
  t: DashboardMessages;
  locale: string;
  /** Shows an error of the dashboard API to the merchant; a lost session sends them back to sign in. */
  fail(error: unknown): void;
  /** The session was ended from the page (sign out everywhere): back to the sign-in. */
  signedOut(): void;
}
