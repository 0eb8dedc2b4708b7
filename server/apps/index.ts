export {
  appsLackingGoogleMerchantId,
  createApp,
  getApp,
  getAppProfile,
  findAppBySecretKey,
  googleMerchantIdNeed,
  reconfigureApp,
  setGoogleMerchantId,
  walletEnvironmentOf,
  NewApp, DecryptionMode, IconCategory, type App, type AppProfile } from './registry';
