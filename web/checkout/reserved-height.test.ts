import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { RESERVED_HEIGHT_PX } from './reserved-height';

test("the widget's stylesheet reserves the height iframe mode's frame takes before it reports", () => {
  const css = readFileSync(new URL('./widget.css', import.meta.url), 'utf8');
  expect(css).toContain(`min-height: var(--wc-min-height, ${RESERVED_HEIGHT_PX}px)`);
});
