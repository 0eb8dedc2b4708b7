/**
 * `<wallet-checkout-widget>`: the widget as a standalone Angular component over `@wallet-checkout/js`'s
 * controller. Inputs become options on every change (compared by value: a template's inline object
 * each check changes nothing); a new clientSecret mounts a new widget, any other change reaches the
 * one there is in place; destroying the component unmounts the widget. The widget is attached
 * after the first render in a browser only (`afterNextRender` does not run on a server), so server
 * rendering leaves the empty element and loads nothing. Status is a signal, so the `data-status`
 * attribute follows it with or without zone.js.
 */
import { afterNextRender, Component, ElementRef, EventEmitter, inject, Input, Output, signal, type OnChanges, type OnDestroy } from '@angular/core';
import { createCheckoutController, pickCheckoutOptions } from '@wallet-checkout/js';
import type { ButtonColor, ButtonSizeMode, ButtonType, CheckoutEventDetails, CheckoutEventName, CheckoutOptions, ControllerStatus, Theme } from '@wallet-checkout/js';

@Component({
  selector: 'wallet-checkout-widget',
  template: '',
  host: { 'data-wallet-checkout-root': '', '[attr.data-status]': 'status()' },
})
export class WalletCheckoutComponent implements CheckoutOptions, OnChanges, OnDestroy {
  /** The checkout host's origin, e.g. `https://checkout.example.com`. */
  @Input({ required: true }) host!: string;
  /** The session's client secret; until there is one (your server is creating the session), nothing is mounted. */
  @Input() clientSecret: string | undefined;
  /** The session creation reply's `public_view`: the button shows without a round trip. */
  @Input() sessionView: object | undefined;
  @Input() apiBase: string | undefined;
  @Input() locale: string | undefined;
  @Input() theme: Theme | undefined;
  @Input() buttonType: ButtonType | undefined;
  @Input() buttonColor: ButtonColor | undefined;
  @Input() buttonLocale: string | undefined;
  @Input() buttonRadius: number | undefined;
  @Input() buttonSizeMode: ButtonSizeMode | undefined;
  @Input() mode: 'inline' | 'iframe' | undefined;
  /** Your CSP nonce: on the bundle's script and on all the widget injects. */
  @Input() nonce: string | undefined;

  /** Each widget event's `detail` (`checkout:ready` → `ready`, ...); a bundle that cannot load is `error` with `code: 'network_error'`. */
  @Output() readonly ready = new EventEmitter<CheckoutEventDetails['checkout:ready']>();
  @Output() readonly success = new EventEmitter<CheckoutEventDetails['checkout:success']>();
  @Output() readonly decline = new EventEmitter<CheckoutEventDetails['checkout:decline']>();
  @Output() readonly error = new EventEmitter<CheckoutEventDetails['checkout:error']>();
  @Output() readonly cancel = new EventEmitter<CheckoutEventDetails['checkout:cancel']>();

  /** The controller's status (idle, loading, mounted, failed), also the element's `data-status`. */
  readonly status = signal<ControllerStatus>('idle');

  /** A record, so the compiler holds it to every event the widget has. */
  readonly #outputs: { [E in CheckoutEventName]: EventEmitter<CheckoutEventDetails[E]> } = {
    'checkout:ready': this.ready,
    'checkout:success': this.success,
    'checkout:decline': this.decline,
    'checkout:error': this.error,
    'checkout:cancel': this.cancel,
  };

  readonly #controller = createCheckoutController({
    onEvent: (event) => (this.#outputs[event.type as CheckoutEventName] as EventEmitter<unknown>).emit(event.detail),
    onStatusChange: (status) => this.status.set(status),
  });

  constructor() {
    const element = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;
    afterNextRender(() => this.#controller.attach(element));
  }

  ngOnChanges(): void {
    this.#controller.setOptions(pickCheckoutOptions(this));
  }

  ngOnDestroy(): void {
    this.#controller.detach();
  }
}
