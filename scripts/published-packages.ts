/**
 * The packages we publish, each as the folder npm packs (the Angular package is the one ng-packagr
 * writes into packages/angular/dist), with the Are the Types Wrong profile its exports are held to
 * (ES modules and CommonJS, or ES modules only): `npm run lint:packages` lints each, and the build
 * packs each into dist/packages/ for the checkout host to serve (scripts/pack-packages.ts).
 */
export const PUBLISHED_PACKAGES = [
  { dir: 'packages/js', profile: 'node16' },
  { dir: 'packages/react', profile: 'node16' },
  { dir: 'packages/vue', profile: 'node16' },
  { dir: 'packages/angular/dist', profile: 'esm-only' },
  { dir: 'packages/node', profile: 'node16' },
  { dir: 'packages/qa-kit', profile: 'node16' },
] as const;
