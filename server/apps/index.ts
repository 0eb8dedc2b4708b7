export {
  appsLackingGoogleMerchantId,
  createApp,
  getApp,
  getAppProfile,
  findAppBySecretKey,
  reconfigureApp,
  updateApp,
  walletEnvironmentOf,
  NewApp, DecryptionMode, IconCategory, type App, type AppProfile } from './registry';
