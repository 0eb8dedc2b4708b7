/**
 * What a page holds on to, counted from before its first script: the event listeners registered
 * and not yet removed on the window, the document, every node still in the page (shadow trees
 * included) and every other target (a media query, a signal); a `once` listener that ran and one
 * whose `signal` aborted count as removed, as the browser drops them; a node taken out of the page
 * goes with its listeners. And the timeouts and animation frames pending, the intervals not
 * cleared. A widget mounted and unmounted a hundred times must leave these where one mount left them.
 */
import type { Page } from '@playwright/test';

export interface LiveResources {
  listeners: number;
  /** Live listeners by event type, to say which grew. */
  listenersByType: Record<string, number>;
  timeouts: number;
  intervals: number;
  animationFrames: number;
}

export async function countLiveResources(page: Page): Promise<() => Promise<LiveResources>> {
  await page.addInitScript(() => {
    /** Each target's listeners: listener -> its `type|capture` keys. */
    const byTarget = new WeakMap<EventTarget, Map<unknown, Set<string>>>();
    const targets = new Set<WeakRef<EventTarget>>();
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    const keyOf = (type: string, options: unknown) => `${type}|${typeof options === 'boolean' ? options : !!(options as { capture?: boolean } | undefined)?.capture}`;
    EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, listener: unknown, options?: boolean | AddEventListenerOptions) {
      const signal = typeof options === 'object' ? options.signal : undefined;
      if (listener && !signal?.aborted) {
        let listeners = byTarget.get(this);
        if (!listeners) {
          byTarget.set(this, (listeners = new Map()));
          targets.add(new WeakRef(this));
        }
        let keys = listeners.get(listener);
        if (!keys) listeners.set(listener, (keys = new Set()));
        const key = keyOf(type, options);
        if (!keys.has(key)) {
          keys.add(key);
          const drop = () => keys?.delete(key);
          if (typeof options === 'object' && options.once) add.call(this, type, drop, { once: true, capture: options.capture ?? false });
          if (signal) add.call(signal, 'abort', drop, { once: true });
        }
      }
      return add.call(this, type, listener as EventListener, options);
    };
    EventTarget.prototype.removeEventListener = function (this: EventTarget, type: string, listener: unknown, options?: boolean | EventListenerOptions) {
      byTarget.get(this)?.get(listener)?.delete(keyOf(type, options));
      return remove.call(this, type, listener as EventListener, options);
    };
    const liveListeners = () => {
      const byType: Record<string, number> = {};
      for (const ref of targets) {
        const target = ref.deref();
        if (!target) targets.delete(ref);
        else if (!(target instanceof Node) || target.isConnected || target === document) {
          for (const keys of byTarget.get(target)?.values() ?? []) for (const key of keys) byType[key.split('|')[0] ?? key] = (byType[key.split('|')[0] ?? key] ?? 0) + 1;
        }
      }
      return byType;
    };

    const pending = { timeouts: new Set<number>(), intervals: new Set<number>(), animationFrames: new Set<number>() };
    const { setTimeout: st, clearTimeout: ct, setInterval: si, clearInterval: ci, requestAnimationFrame: raf, cancelAnimationFrame: caf } = window;
    window.setTimeout = ((run: TimerHandler, ms?: number, ...args: unknown[]) => {
      const id: number = st(
        (...a: unknown[]) => {
          pending.timeouts.delete(id);
          if (typeof run === 'function') (run as (...x: unknown[]) => void)(...a);
        },
        ms,
        ...args,
      );
      pending.timeouts.add(id);
      return id;
    }) as typeof setTimeout;
    window.clearTimeout = ((id?: number) => {
      if (id !== undefined) pending.timeouts.delete(id);
      ct(id);
    }) as typeof clearTimeout;
    window.setInterval = ((run: TimerHandler, ms?: number, ...args: unknown[]) => {
      const id = si(run, ms, ...args);
      pending.intervals.add(id);
      return id;
    }) as typeof setInterval;
    window.clearInterval = ((id?: number) => {
      if (id !== undefined) pending.intervals.delete(id);
      ci(id);
    }) as typeof clearInterval;
    window.requestAnimationFrame = (run: FrameRequestCallback) => {
      const id = raf((time) => {
        pending.animationFrames.delete(id);
        run(time);
      });
      pending.animationFrames.add(id);
      return id;
    };
    window.cancelAnimationFrame = (id: number) => {
      pending.animationFrames.delete(id);
      caf(id);
    };

    (window as unknown as { __liveResources: () => unknown }).__liveResources = () => {
      const byType = liveListeners();
      return {
        listeners: Object.values(byType).reduce((a, b) => a + b, 0),
        listenersByType: byType,
        timeouts: pending.timeouts.size,
        intervals: pending.intervals.size,
        animationFrames: pending.animationFrames.size,
      };
    };
  });
  return () => page.evaluate(() => (window as unknown as { __liveResources: () => LiveResources }).__liveResources());
}
