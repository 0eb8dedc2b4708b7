/**
 * The small, engine-neutral driver the shopper's flows (shopper.flows.ts) are
 * written against, so each flow's steps exist once and run in every engine:
 * Chromium through Playwright, Firefox ESR through puppeteer-core over WebDriver
 * BiDi, WebKitGTK through WebKitWebDriver (docs/testing.md, "Every engine").
 *
 * Elements are found in the page by one function (queryPage below) that every
 * adapter hands to its engine as is: the same lookup everywhere, through the open
 * shadow roots the widget and the sandbox wallet render into. Clicks and keys are
 * the engine's own trusted input, never a script's `el.click()`.
 */

export type Engine = 'chromium' | 'firefox-esr' | 'webkitgtk';

/** An element of the current frame: by CSS selector, or a button by its accessible name. */
export type ElementQuery = { css: string } | { button: string };

/** The keys the shopper's flows press (WebDriver and Playwright name them alike). */
export type Key = 'Tab' | 'Enter' | 'Escape' | 'ArrowDown';

export interface EngineDriver {
  goto(url: string): Promise<void>;
  /** Runs `fn` in the current frame; `fn` must be self-contained (it is sent as source text). */
  evaluate<A, R>(fn: (arg: A) => R, arg: A): Promise<Awaited<R>>;
  /** Runs a classic script's source in the current frame (axe-core's bundle, say). */
  addScript(source: string): Promise<void>;
  /** Clicks, as a pointer does, the element `query` finds once it is there. */
  click(query: ElementQuery): Promise<void>;
  /** Presses a key on whatever has the focus. */
  press(key: Key): Promise<void>;
  /** Types `text` into the field `query` finds once it is there, key by key as a keyboard does. */
  type(query: ElementQuery, text: string): Promise<void>;
  /** From now on, works inside the iframe `query` finds in the current frame. */
  enterFrame(query: ElementQuery): Promise<void>;
  /** Back to the top-level page. */
  leaveFrames(): Promise<void>;
  close(): Promise<void>;
}

/** What the flows read of an element: its text, attributes, whether it is rendered, has the focus, is checked. */
export interface ElementSnapshot {
  text: string;
  attributes: Record<string, string>;
  visible: boolean;
  focused: boolean;
  checked: boolean;
}

/**
 * Finds what `query` matches in the current document and every open shadow root
 * within it: `as: 'element'`, the first a shopper could act on (rendered, not
 * disabled), for an adapter to click or enter; `as: 'snapshot'`, what the first
 * match (a rendered one if any) shows. Null when nothing matches. It runs in the
 * page, sent as source text: self-contained on purpose.
 */
function queryPage({ query, as }: { query: ElementQuery; as: 'element' | 'snapshot' }): Element | ElementSnapshot | null {
  const roots: (Document | ShadowRoot)[] = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i]?.querySelectorAll('*') ?? []) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  const textOf = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  const matches = roots.flatMap((root) =>
    'css' in query ? [...root.querySelectorAll(query.css)] : [...root.querySelectorAll('button, [role=button]')].filter((el) => (el.getAttribute('aria-label') ?? textOf(el)) === query.button),
  );
  const rendered = (el: Element) => el.getClientRects().length > 0;
  if (as === 'element') return matches.find((el) => rendered(el) && !el.matches(':disabled')) ?? null;
  const el = matches.find(rendered) ?? matches[0];
  if (!el) return null;
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return { text: textOf(el), attributes: Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])), visible: rendered(el), focused: active === el, checked: el.matches(':checked') };
}

/** queryPage for an element to act on (its `as` says which result it gives: the compiler cannot). */
export const findElement = queryPage as (request: { query: ElementQuery; as: 'element' }) => Element | null;
/** queryPage for what an element shows. */
export const readElement = queryPage as (request: { query: ElementQuery; as: 'snapshot' }) => ElementSnapshot | null;

/** How long a step waits for its element, as the Playwright suite's expect timeout. */
const STEP_TIMEOUT_MS = 10_000;

/** Polls `look` until it gives a value (not null/undefined), or fails saying what was awaited. */
export async function waitFor<T>(what: string, look: () => Promise<T | null | undefined>, timeoutMs = STEP_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await look();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What Playwright's and puppeteer's evaluateHandle give back: a handle that may be an element's. */
interface PageHandle<E> {
  asElement(): E | null;
  dispose(): Promise<void>;
}

/** Waits for the element `query` finds, as the engine's element handle (Playwright, puppeteer). */
export function elementHandleFor<E>(query: ElementQuery, evaluateHandle: (request: { query: ElementQuery; as: 'element' }) => Promise<PageHandle<E>>): Promise<E> {
  return waitFor(describeQuery(query), async () => {
    const handle = await evaluateHandle({ query, as: 'element' });
    const element = handle.asElement();
    if (!element) await handle.dispose();
    return element;
  });
}

export const describeQuery = (query: ElementQuery) => ('css' in query ? query.css : `button "${query.button}"`);

/** What Playwright's and puppeteer's frames both offer, in the shape the frame driver uses. */
export interface BrowserFrame {
  evaluate(fn: (arg: unknown) => never, arg: unknown): Promise<unknown>;
  addScriptTag(options: { content: string }): Promise<unknown>;
}

/** Runs `findElement` in `frame`, as the library's handle (whose types cannot follow an Element-or-null). */
export type ElementSearch<F, E> = (frame: F, request: { query: ElementQuery; as: 'element' }) => Promise<PageHandle<E>>;

/** What their element handles offer: a pointer's click, typing, and the frame an iframe holds. */
export interface BrowserElement<F> {
  click(): Promise<void>;
  type(text: string): Promise<void>;
  contentFrame(): Promise<F | null>;
}

/** What their pages offer: the top-level frame, navigation and the keyboard. */
export interface BrowserPage<F> {
  mainFrame(): F;
  goto(url: string): Promise<unknown>;
  keyboard: { press(key: Key): Promise<void> };
}

/**
 * The driver over a page of a library that drives the browser by its frames
 * (Playwright for Chromium, puppeteer for Firefox): the two differ only in
 * their types, and in how a page is closed.
 */
export function frameDriver<F extends BrowserFrame, E extends BrowserElement<F>>(page: BrowserPage<F>, search: ElementSearch<F, E>, close: () => Promise<void>): EngineDriver {
  let frame = page.mainFrame();
  const elementFor = (query: ElementQuery) => elementHandleFor(query, (request) => search(frame, request));
  return {
    async goto(url) {
      frame = page.mainFrame();
      await page.goto(url);
    },
    // Both libraries type the argument by what survives serialization; the driver's callers pass plain values.
    evaluate: (fn, arg) => frame.evaluate(fn as (arg: unknown) => never, arg) as never,
    async addScript(source) {
      await frame.addScriptTag({ content: source });
    },
    async click(query) {
      await (await elementFor(query)).click();
    },
    press: (key) => page.keyboard.press(key),
    async type(query, text) {
      await (await elementFor(query)).type(text);
    },
    async enterFrame(query) {
      const inner = await (await elementFor(query)).contentFrame();
      if (!inner) throw new Error(`${describeQuery(query)} is not a frame`);
      frame = inner;
    },
    async leaveFrames() {
      frame = page.mainFrame();
    },
    close,
  };
}
