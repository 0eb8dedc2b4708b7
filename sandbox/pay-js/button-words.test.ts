import { describe, expect, it } from 'vitest';
import { BUTTON_LOCALES } from '../../contracts/google-button';
import { BUTTON_WORD_LOCALES, buttonWords } from './button-words';

describe("the sandbox button's words", () => {
  it("are written in every language Google draws its button in, and in no other", () => {
    expect([...BUTTON_WORD_LOCALES].sort()).toEqual([...BUTTON_LOCALES].sort());
  });

  it('name the logo once in every language and button type', () => {
    for (const locale of BUTTON_LOCALES) {
      for (const type of ['book', 'buy', 'checkout', 'donate', 'order', 'pay', 'subscribe']) {
        const words = buttonWords(type, locale);
        expect(words.text.split('G Pay')).toHaveLength(2);
        expect(words.label.split('Google Pay')).toHaveLength(2);
        expect(words.lang).toBe(locale);
      }
    }
  });

  it("speak the button's language, Google's default type being buy", () => {
    expect(buttonWords(undefined, 'ja').text).toBe('G Pay で購入');
    expect(buttonWords('pay', 'ar')).toEqual({ lang: 'ar', text: 'ادفع باستخدام G Pay', label: 'ادفع باستخدام Google Pay' });
    expect(buttonWords('long', 'de').text).toBe('Mit G Pay kaufen');
  });

  it('show the logo alone for a plain button, and English where no language, or one Google lacks, is asked for', () => {
    expect(buttonWords('plain', 'fr').text).toBe('G Pay');
    expect(buttonWords('pay', undefined)).toEqual({ lang: 'en', text: 'Pay with G Pay', label: 'Pay with Google Pay' });
    expect(buttonWords('pay', 'he').lang).toBe('en');
  });
});
