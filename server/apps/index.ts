export {
  appsLackingGoogleMerchantId,
  changeCheckoutSettings,
  createApp,
  getApp,
  findSessionAndApp,
  getAppProfile,
  findAppBySecretKey,
  findSessionBySecretKey,
  reconfigureApp,
  rollSecretKey,
  updateApp,
  walletEnvironmentOf,
  NewApp, IconCategory, type App, type AppProfile } from './registry';
