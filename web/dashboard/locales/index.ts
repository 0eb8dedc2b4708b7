/**
 * The dashboard's words, one file per language the widget speaks (the widget's
 * LANGUAGES): each file is a `DashboardMessages`, so a key missing in one
 * fails the typecheck. All are in the dashboard's bundle: a merchant's page,
 * not a shopper's, where a few kilobytes do not matter.
 */
import type { DashboardMessages } from './messages';
import { ar } from './ar';
import { de } from './de';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';

export type { DashboardMessages };

/**
 * The dashboard's languages: the merchant's, five, a set of its own (the widget's, which shoppers
 * read, are many more: docs/embedding.md).
 */
export type DashboardLocale = 'en' | 'fr' | 'de' | 'es' | 'ar';

export const DASHBOARD_MESSAGES: Readonly<Record<DashboardLocale, DashboardMessages>> = { en, fr, de, es, ar };

/** `{name}` in `text` replaced by `values.name`. */
export const fill = (text: string, values: Record<string, string | number>): string => text.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
