/** `import css from './x.css?inline'`: Vite gives the stylesheet's text (minified in a build). */
declare module '*.css?inline' {
  const css: string;
  export default css;
}
