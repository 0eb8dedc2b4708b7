/** The bare page's only script: Google's button element and nothing else (the time-to-button baseline). */
import '@google-pay/button-element';
