/**
 * The height the widget's box reserves unless the page sets `--wc-min-height` (widget.css; docs/embedding.md,
 * "Reserved height"): every state of an English widget at least 264 px wide, with a description of two lines, fits
 * in it (measured on the gallery, /demo/gallery). In iframe mode the first script takes it on the page for the frame
 * (mount.ts) before the frame's chunk and the frame's first report of its widget's height, which move nothing below it.
 */
export const RESERVED_HEIGHT_PX = 240;
