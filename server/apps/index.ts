export { createApp, getApp, getAppProfile, findAppBySecretKey, reconfigureApp, walletEnvironmentOf, NewApp, DecryptionMode, IconCategory, type App, type AppProfile } from './registry';
