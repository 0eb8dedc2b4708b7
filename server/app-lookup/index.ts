/** The apps API (`apps.get` of the first seed): one Express router to mount. */
export { appLookupRoutes, type AppLookupOptions } from './routes';
