/** The start banner (server/banner.ts): every place a newcomer looks for, and how to sign in to the demo app. */
import { expect, it } from 'vitest';
import { startBanner } from './banner';

const origin = 'http://127.0.0.1:3000';

it('names the store, the dashboard and where the demo key is, the gallery and the API document', () => {
  const banner = startBanner({ origin, store: '/home/dev/shop/data/checkout.db', demoCredentials: '/home/dev/shop/data/demo-merchant.json', gallery: true, embeddedSandbox: true, cwd: '/home/dev/shop' });
  expect(banner).toContain(`Demo store:    ${origin}/`);
  expect(banner).toContain(`Dashboard:     ${origin}/dashboard`);
  expect(banner).toContain('data/demo-merchant.json');
  expect(banner).toContain(`node -p "require('./data/demo-merchant.json').secret_key"`);
  expect(banner).toContain(`${origin}/demo/gallery`);
  expect(banner).toContain(`${origin}/openapi.json`);
  expect(banner).toContain('Store:         data/checkout.db');
});

it('without the demo: no demo store or gallery, and the dashboard says which key signs in', () => {
  const banner = startBanner({ origin, store: 'postgres://checkout@db.internal/checkout', demoCredentials: undefined, gallery: false, embeddedSandbox: false, cwd: '/srv' });
  expect(banner).not.toContain('Demo store');
  expect(banner).not.toContain('/demo/gallery');
  expect(banner).toContain("an application's secret key");
  expect(banner).toContain('Store:         postgres://checkout@db.internal/checkout');
});

it('names a credentials file outside the working directory by its whole path', () => {
  const banner = startBanner({ origin, store: '/var/lib/checkout/checkout.db', demoCredentials: '/var/lib/checkout/demo-merchant.json', gallery: true, embeddedSandbox: true, cwd: '/home/dev/shop' });
  expect(banner).toContain(`node -p "require('/var/lib/checkout/demo-merchant.json').secret_key"`);
});
