/**
 * An amount laid out in its own locale's direction, whatever the paragraph around it. Intl writes
 * Arabic's US dollars as "\u200f24.00 US$" (number, then symbol, read right to left): put as it is
 * in a right-to-left line, the "$" after the Latin "US" takes the line's direction and is drawn on
 * the other side of it, "$US 24.00"; an English "US$24.00" in such a line comes apart the other way.
 * So the amount is isolated in its locale's direction, and its currency symbol in its own (first
 * strong letter: "US$" left to right, "د.ك." right to left) inside it: an element's `dir` where
 * there is an element, Unicode's isolates (U+2066 to U+2069) in plain text (an aria-label, words
 * filled in with an amount). The text itself is Intl's, unchanged.
 */

export type TextDirection = 'ltr' | 'rtl';

/** Scripts written right to left, as Intl.Locale names them (ISO 15924). */
const RIGHT_TO_LEFT_SCRIPTS = new Set(['Adlm', 'Arab', 'Hebr', 'Mand', 'Nkoo', 'Rohg', 'Samr', 'Syrc', 'Thaa', 'Yezi']);

/** The direction of `locale`'s script, as Intl fills it in (ar-EG: Arab, he: Hebr, ks-Deva: Deva); left to right for a tag Intl refuses. */
export function directionOfLocale(locale: string): TextDirection {
  try {
    return RIGHT_TO_LEFT_SCRIPTS.has(new Intl.Locale(locale).maximize().script ?? '') ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}

/** The currency symbol or code: the first run of letters and currency signs, with the dots some are written with ("د.ك.", "kr."). */
const SYMBOL = /[\p{L}\p{Sc}][\p{L}\p{Sc}.]*/u;

/** `text` cut around its currency symbol: [before, symbol, after]; the symbol is empty when there is none. */
export function aroundSymbol(text: string): [before: string, symbol: string, after: string] {
  const match = SYMBOL.exec(text);
  if (!match) return [text, '', ''];
  return [text.slice(0, match.index), match[0], text.slice(match.index + match[0].length)];
}

const RIGHT_TO_LEFT_ISOLATE = '\u2067';
const FIRST_STRONG_ISOLATE = '\u2068';
const POP_ISOLATE = '\u2069';

/**
 * `text` (an amount Intl formatted) for a sentence or an attribute, where no element can hold it:
 * a right-to-left amount isolated whole, its symbol inside; a left-to-right one as Intl wrote it. Every
 * line we write an amount in is in the amount's own locale's direction or left to right (the widget's and
 * the dashboard's amounts are in their words' language, the sandbox sheet is English), and there a
 * left-to-right amount already keeps its order, so its text stays the plain text tests and readers search for.
 */
export function amountForText(text: string, dir: TextDirection): string {
  if (dir === 'ltr') return text;
  const [before, symbol, after] = aroundSymbol(text);
  const isolatedSymbol = symbol && FIRST_STRONG_ISOLATE + symbol + POP_ISOLATE;
  return RIGHT_TO_LEFT_ISOLATE + before + isolatedSymbol + after + POP_ISOLATE;
}

/**
 * Writes the amount `text` into `target` (an element of its own, which takes `dir` and so is isolated),
 * its symbol in a `<bdi>`: the element's textContent stays Intl's text. Writes nothing when it already shows it.
 */
export function showAmount(target: HTMLElement, text: string, dir: TextDirection): void {
  if (target.getAttribute('dir') !== dir) target.setAttribute('dir', dir);
  if (target.textContent === text) return;
  const [before, symbol, after] = aroundSymbol(text);
  const bdi = document.createElement('bdi');
  bdi.append(symbol);
  target.replaceChildren(...[before, symbol && bdi, after].filter((part): part is string | HTMLElement => !!part));
}
