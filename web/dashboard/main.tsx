/**
 * The dashboard's entry (dist/web/dashboard.js, served at /dashboard): its own
 * bundle, so nothing of it reaches the widget's. The language is the
 * browser's (one of the dashboard's five languages, else English), the colours the
 * system's (prefers-color-scheme, in dashboard.css).
 */
import { render } from 'preact';
import { directionOf, languageOf } from '../checkout/locales';
import { Dashboard } from './Dashboard';
import css from './dashboard.css?inline';
import { DASHBOARD_MESSAGES, type DashboardLocale } from './locales';

const locale = navigator.language || 'en';
const language = (languageOf(locale, Object.keys(DASHBOARD_MESSAGES)) ?? 'en') as DashboardLocale;
document.documentElement.lang = language;
document.documentElement.dir = directionOf(language);
const style = document.createElement('style');
style.textContent = css;
document.head.append(style);
const root = document.getElementById('dashboard');
if (root) render(<Dashboard t={DASHBOARD_MESSAGES[language]} locale={locale} />, root);
