/**
 * Follows an application's new events through the events API, as `wallet-checkout listen` forwards
 * them. Each read asks for a time window (`created_gte`) reaching LOOKBACK_MS back from the newest
 * event seen, every page of it, and hands on the events not seen before, oldest first.
 *
 * Why a window and not a cursor on the newest id: an event's `created` is taken inside the
 * transaction that records it, so an event can become visible after a later one (a slower
 * transaction, an instance whose clock is a little behind). A cursor would step over it for good;
 * the window reads it on the next pass, and the ids already seen keep it from being handed on twice.
 */
import type { RequestOptions } from '../http';
import { everyItem } from '../resources';
import type { Event, EventList, EventListParams } from '../types';

/** How far before the newest event seen each read reaches: well beyond a transaction's length or NTP-kept clocks' drift. */
export const LOOKBACK_MS = 10_000;
const PAGE = 100;

export type ListEvents = (params: EventListParams, options?: RequestOptions) => Promise<EventList>;

const oldestFirst = (a: Event, b: Event) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class EventFollower {
  /** The events read in the current window, by id, with their `created`: what is not new. */
  readonly #seen = new Map<string, number>();
  #newest = 0;

  constructor(private readonly list: ListEvents) {}

  /** Takes what the application has now as seen: from here on, only events recorded later are new. */
  async start(options?: RequestOptions): Promise<void> {
    const [latest] = (await this.list({ limit: 1 }, options)).data;
    this.#newest = latest?.created ?? 0;
    await this.next(options);
  }

  /** The events recorded since the last call (or start), oldest first. */
  async next(options?: RequestOptions): Promise<Event[]> {
    const window: Event[] = [];
    for await (const event of everyItem(this.list, { created_gte: Math.max(0, this.#newest - LOOKBACK_MS), limit: PAGE }, options)) window.push(event);
    const fresh = window.filter((event) => !this.#seen.has(event.id)).sort(oldestFirst);
    for (const event of window) {
      this.#seen.set(event.id, event.created);
      this.#newest = Math.max(this.#newest, event.created);
    }
    // An event older than the window is never read again: forgetting it keeps the set as small as the window.
    for (const [id, created] of this.#seen) if (created < this.#newest - LOOKBACK_MS) this.#seen.delete(id);
    return fresh;
  }
}
