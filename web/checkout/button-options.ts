/**
 * The Google Pay button's options, held to Google's brand guidelines
 * (developers.google.com/pay/api/web/guides/brand-guidelines) and ButtonOptions
 * reference: the eight labelled types, the three colors, static or fill, the
 * languages Google translates the button into. A value outside them is
 * dropped for the default, with a console warning naming it, rather than
 * handed to pay.js, which would draw an off-brand or broken button.
 */
import { BUTTON_LOCALES } from '../../contracts/google-button';
import type { ButtonColor, ButtonSizeMode, ButtonType, MountOptions } from './types';

export const BUTTON_TYPES: readonly ButtonType[] = ['book', 'buy', 'checkout', 'donate', 'order', 'pay', 'plain', 'subscribe'];
export const BUTTON_COLORS: readonly ButtonColor[] = ['default', 'black', 'white'];
export const BUTTON_SIZE_MODES: readonly ButtonSizeMode[] = ['static', 'fill'];
/** Beyond this a corner radius only makes a pill of the button: Google draws it up to half its height (40 px static). */
export const MAX_BUTTON_RADIUS = 100;

/** Google's legacy names, still accepted by pay.js: the labels they stand for. */
const LEGACY_TYPES: Partial<Record<string, ButtonType>> = { long: 'buy', short: 'plain' };

export interface GoogleButtonOptions {
  buttonType: ButtonType;
  buttonColor: ButtonColor;
  buttonSizeMode: ButtonSizeMode;
  buttonRadius: number | undefined;
  /** Absent: the widget's own language. */
  buttonLocale: string | undefined;
}

/** The language of Google's list a tag is written in (pt-PT -> pt, zh-Hant -> zh, sr-Latn -> sr), if Google's list has it. */
export function googleButtonLanguage(tag: string): string | undefined {
  const language = tag.toLowerCase().split(/[-_]/)[0];
  return language && BUTTON_LOCALES.includes(language) ? language : undefined;
}

const warned = new Set<string>();
function refuse(option: string, value: unknown, allowed: string): undefined {
  const key = `${option}=${String(value)}`;
  if (!warned.has(key)) {
    warned.add(key);
    console.warn(`WalletCheckout: ${option} "${String(value)}" is not one Google's brand guidelines allow (${allowed}); using the default`);
  }
  return undefined;
}

const oneOf = <T extends string>(option: string, value: string | undefined, allowed: readonly T[]): T | undefined =>
  value === undefined ? undefined : allowed.includes(value as T) ? (value as T) : refuse(option, value, allowed.join(', '));

export function googleButtonOptions(options: MountOptions): GoogleButtonOptions {
  const type = options.buttonType === undefined ? undefined : (LEGACY_TYPES[options.buttonType] ?? options.buttonType);
  const radius = options.buttonRadius;
  return {
    buttonType: oneOf('buttonType', type, BUTTON_TYPES) ?? 'pay',
    // Google's guidance: a white button on a dark background.
    buttonColor: oneOf('buttonColor', options.buttonColor, BUTTON_COLORS) ?? (options.theme === 'dark' ? 'white' : 'default'),
    buttonSizeMode: oneOf('buttonSizeMode', options.buttonSizeMode, BUTTON_SIZE_MODES) ?? 'static',
    buttonRadius:
      radius === undefined ? undefined : Number.isFinite(radius) && radius >= 0 && radius <= MAX_BUTTON_RADIUS ? radius : refuse('buttonRadius', radius, `0 to ${MAX_BUTTON_RADIUS} px`),
    buttonLocale: options.buttonLocale === undefined ? undefined : (googleButtonLanguage(options.buttonLocale) ?? refuse('buttonLocale', options.buttonLocale, BUTTON_LOCALES.join(', '))),
  };
}
