/**
 * The widget's stylesheet (widget.css, which lists the custom properties a page may set),
 * injected into its shadow root; the `?inline` import gives its text, minified by the build,
 * rather than a stylesheet file.
 */
import css from './widget.css?inline';

export const CSS = css;
