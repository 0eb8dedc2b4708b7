import { afterEach, describe, expect, it, vi } from 'vitest';
import { googleButtonOptions } from './button-options';
import type { MountOptions } from './types';

const options = (o: Partial<MountOptions>): MountOptions => ({ clientSecret: 'cs_1_secret_x', ...o });

describe('the Google Pay button options, held to the brand guidelines', () => {
  afterEach(() => vi.restoreAllMocks());

  it('passes every allowed option through', () => {
    expect(googleButtonOptions(options({ buttonType: 'donate', buttonColor: 'black', buttonSizeMode: 'fill', buttonRadius: 8, buttonLocale: 'fr-CA' }))).toEqual({
      buttonType: 'donate',
      buttonColor: 'black',
      buttonSizeMode: 'fill',
      buttonRadius: 8,
      buttonLocale: 'fr',
    });
  });

  it('defaults: pay, default color (white on a dark theme), static, the widget\'s language', () => {
    expect(googleButtonOptions(options({}))).toEqual({ buttonType: 'pay', buttonColor: 'default', buttonSizeMode: 'static', buttonRadius: undefined, buttonLocale: undefined });
    expect(googleButtonOptions(options({ theme: 'dark' })).buttonColor).toBe('white');
  });

  it('maps Google\'s legacy long and short to the labels they stand for', () => {
    expect(googleButtonOptions(options({ buttonType: 'long' })).buttonType).toBe('buy');
    expect(googleButtonOptions(options({ buttonType: 'short' })).buttonType).toBe('plain');
  });

  it('drops what the guidelines do not allow for the default, and says so on the console', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tag = { buttonType: 'purchase', buttonColor: 'red', buttonSizeMode: 'huge', buttonRadius: -4, buttonLocale: 'xx' } as unknown as Partial<MountOptions>;
    expect(googleButtonOptions(options(tag))).toEqual({ buttonType: 'pay', buttonColor: 'default', buttonSizeMode: 'static', buttonRadius: undefined, buttonLocale: undefined });
    expect(warn.mock.calls.map(([message]) => String(message).match(/(\w+) "/)?.[1])).toEqual(['buttonType', 'buttonColor', 'buttonSizeMode', 'buttonRadius', 'buttonLocale']);
  });
});
