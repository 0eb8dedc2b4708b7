/** What a widget is started with (mount.ts starts one per session and backend), and what it is driven by. */
import type { MountOptions } from './types';

export interface CheckoutProps {
  /** The merchant's mount element: events are dispatched on it. */
  target: HTMLElement;
  options: MountOptions;
  /** BCP 47 tag of the widget's language and number format. */
  locale: string;
  apiBase: string;
  sessionId: string | null;
}

export interface CheckoutWidget {
  /** New options or locale for the same session and backend (a new one is a new widget). */
  update(props: CheckoutProps): void;
  /** Stops every request, timer and listener, and empties `container`. */
  stop(): void;
}
