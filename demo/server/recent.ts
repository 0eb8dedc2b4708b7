/** What the demo's server remembers (orders, subscriptions): in memory, as a demo may, and bounded to the newest `max`. */
export function recentMap<K, V>(max: number): { get(key: K): V | undefined; set(key: K, value: V): void } {
  const entries = new Map<K, V>();
  return {
    get: (key) => entries.get(key),
    set(key, value) {
      // Deleted first, so that a value set again counts as the newest.
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}
