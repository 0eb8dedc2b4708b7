export {
  appsLackingGoogleMerchantId,
  createApp,
  getApp,
  getAppProfile,
  findAppBySecretKey,
  googleMerchantIdNeed,
  reconfigureApp,
  setGoogleMerchantId,
  NewApp, DecryptionMode, IconCategory, type App, type AppProfile } from './registry';
