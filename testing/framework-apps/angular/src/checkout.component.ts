import { Component, signal } from '@angular/core';
import { WalletCheckoutComponent } from '@wallet-checkout/angular';

interface CheckoutSession {
  host: string;
  clientSecret: string;
  sessionView: object;
  nonce: string;
}

/** The shop's checkout page: the session its server created, the widget, a theme switch, and the widget's events as the shop shows them. */
@Component({
  selector: 'app-checkout',
  imports: [WalletCheckoutComponent],
  template: `
    <main>
      @if (session(); as session) {
        <wallet-checkout-widget id="checkout" [host]="session.host" [clientSecret]="session.clientSecret" [sessionView]="session.sessionView" [nonce]="session.nonce" [theme]="theme()"
          (ready)="record('ready', $event)" (success)="record('success', $event)" (decline)="record('decline', $event)" (error)="record('error', $event)" (cancel)="record('cancel', $event)" />
      }
      <button id="dark" type="button" (click)="theme.set('dark')">Dark theme</button>
      <ol id="events">
        @for (event of events(); track $index) {
          <li>{{ event }}</li>
        }
      </ol>
    </main>
  `,
})
export class CheckoutComponent {
  readonly session = signal<CheckoutSession | undefined>(undefined);
  readonly theme = signal<'light' | 'dark'>('light');
  readonly events = signal<string[]>([]);

  constructor() {
    void fetch('/checkout-session')
      .then((reply) => reply.json() as Promise<CheckoutSession>)
      .then((session) => this.session.set(session));
  }

  record(name: string, detail: { sessionId: string | null; code?: string | null }): void {
    this.events.update((list) => [...list, [name, detail.sessionId, detail.code].filter(Boolean).join(' ')]);
  }
}
