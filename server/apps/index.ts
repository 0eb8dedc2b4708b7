export { createApp, getApp, getAppProfile, findAppBySecretKey, reconfigureApp, NewApp, DecryptionMode, IconCategory, type App, type AppProfile } from './registry';
