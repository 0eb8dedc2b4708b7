export { createApp, getApp, findAppBySecretKey, setAllowedOrigins, NewApp, DecryptionMode, type App } from './registry';
