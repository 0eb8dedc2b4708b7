/**
 * The built component (`@wallet-checkout/angular` is its build here, vite.config.ts: run npm run build first) rendered by
 * Angular's own server renderer, no window or document anywhere: its partial compilation is linked
 * at run time by Angular's JIT compiler, as an app's tests would. The server's HTML holds the
 * component's empty element with `data-status="idle"`: the widget was never attached there (an
 * attach would have made it `loading`), and nothing was loaded.
 */
import '@angular/compiler';
import { Component, provideZonelessChangeDetection } from '@angular/core';
import { bootstrapApplication, type BootstrapContext } from '@angular/platform-browser';
import { provideServerRendering, renderApplication } from '@angular/platform-server';
import { describe, expect, it } from 'vitest';
import { WalletCheckoutComponent } from '@wallet-checkout/angular';

describe('<wallet-checkout-widget> rendered on the server', () => {
  it('renders the empty element, idle, without a window or a document', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    class Shop {
      readonly clientSecret = 'cs_1_secret_a';
    }
    Component({
      selector: 'app-shop',
      imports: [WalletCheckoutComponent],
      template: '<wallet-checkout-widget class="pay" host="https://checkout.example" [clientSecret]="clientSecret" theme="dark" (success)="clientSecret" />',
    })(Shop);
    const html = await renderApplication(
      (context: BootstrapContext) => bootstrapApplication(Shop, { providers: [provideServerRendering(), provideZonelessChangeDetection()] }, context),
      { document: '<!doctype html><html><head></head><body><app-shop></app-shop></body></html>', url: '/' },
    );
    const element = /<wallet-checkout-widget[^>]*>.*?<\/wallet-checkout-widget>/.exec(html)?.[0];
    expect(element).toBe('<wallet-checkout-widget data-wallet-checkout-root="" host="https://checkout.example" theme="dark" class="pay" data-status="idle"></wallet-checkout-widget>');
    expect(html).not.toContain('<script');
    expect(typeof window).toBe('undefined');
  });
});
