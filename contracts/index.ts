/** Every schema and type shared between the server, the widget and the tests. */
export * from './authentication';
export * from './billing-address';
export * from './charges';
export * from './dashboard';
export * from './country';
export * from './ecv2';
export * from './events';
export * from './express';
export * from './google-pay';
export * from './keys';
export * from './origin-verification';
export * from './refunds';
export * from './sandbox';
export * from './sessions';
export * from './text';
export * from './urls';
export * from './webhooks';
