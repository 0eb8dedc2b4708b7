/** The apps API (`apps.get`, its one operation): one Express router to mount. */
export { appLookupRoutes, type AppLookupOptions } from './routes';
