export { createApp, getApp, findAppBySecretKey, reconfigureApp, NewApp, DecryptionMode, type App } from './registry';
