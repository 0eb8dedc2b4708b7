/**
 * How `wallet-checkout listen` follows new events, against an events API that answers as the real
 * one does (newest first, created_gte, pages by starting_after): what exists at start is not new, a
 * window larger than a page is read whole, and an event that becomes visible after a later one (a
 * slower transaction) is still handed on, once.
 */
import { describe, expect, it } from 'vitest';
import { EventFollower, LOOKBACK_MS, type ListEvents } from '../src/cli/event-follower';
import type { Event } from '../src';

const event = (id: string, created: number) => ({ id, created, type: 'session.succeeded' }) as Event;

/** The events API over `recorded` (what is committed now), and every query it was asked. */
function eventsApi(recorded: Event[]) {
  const asked: { created_gte?: number; starting_after?: string }[] = [];
  const list: ListEvents = async ({ created_gte = 0, limit = 10, starting_after }) => {
    asked.push({ created_gte, starting_after });
    const newestFirst = recorded.filter((e) => e.created >= created_gte).sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
    const from = starting_after === undefined ? 0 : newestFirst.findIndex((e) => e.id === starting_after) + 1;
    return { object: 'list', data: newestFirst.slice(from, from + limit), has_more: from + limit < newestFirst.length };
  };
  return { list, asked };
}

describe('EventFollower', () => {
  it('hands on only what is recorded after its start, oldest first, each once', async () => {
    const recorded = [event('evt_a', 101_000), event('evt_b', 102_000)];
    const api = eventsApi(recorded);
    const follower = new EventFollower(api.list);
    await follower.start();
    expect(await follower.next()).toEqual([]);
    recorded.push(event('evt_d', 103_500), event('evt_c', 103_000));
    expect((await follower.next()).map((e) => e.id)).toEqual(['evt_c', 'evt_d']);
    expect(await follower.next()).toEqual([]);
    // Each read asks for the window behind the newest event seen, not the whole history.
    expect(api.asked.at(-1)?.created_gte).toBe(103_500 - LOOKBACK_MS);
  });

  it('still hands on an event that became visible after a later one, within the window', async () => {
    const recorded = [event('evt_a', 50_000)];
    const follower = new EventFollower(eventsApi(recorded).list);
    await follower.start();
    recorded.push(event('evt_later', 52_000));
    expect((await follower.next()).map((e) => e.id)).toEqual(['evt_later']);
    // Recorded at 51 000 by a transaction that committed after evt_later's.
    recorded.push(event('evt_slow', 51_000));
    expect((await follower.next()).map((e) => e.id)).toEqual(['evt_slow']);
    expect(await follower.next()).toEqual([]);
  });

  it('reads every page of a window that holds more than one', async () => {
    const recorded: Event[] = [];
    const api = eventsApi(recorded);
    const follower = new EventFollower(api.list);
    await follower.start();
    for (let i = 0; i < 250; i++) recorded.push(event(`evt_${String(i).padStart(3, '0')}`, 10_000 + i));
    const fresh = await follower.next();
    expect(fresh).toHaveLength(250);
    expect(fresh.map((e) => e.created)).toEqual(recorded.map((e) => e.created));
    expect(api.asked.filter((query) => query.starting_after !== undefined)).toHaveLength(2);
  });
});
