import { provideZonelessChangeDetection } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import { CheckoutComponent } from './checkout.component';

bootstrapApplication(CheckoutComponent, { providers: [provideZonelessChangeDetection()] }).catch((error: unknown) => console.error(error));
