import { describe, expect, it } from 'vitest';
import { samplesOf } from './pay-perf';

// Two samples as `perf script -F tid,ip,sym,dso` prints them: the thread id is right-aligned, so a
// four-digit one is indented like the frames under it.
const script = [
  ' 5023 ',
  '\t          e34a80 v8::internal::FieldIndex::ForPropertyIndex (/usr/bin/node)',
  '\t         112e9e7 v8::internal::Runtime_ObjectEntries (/usr/bin/node)',
  '',
  '12345 ',
  '\t    7fcfb83e9f0b JS:*pay file:///srv/dist/server/main.js:3269:19 (/tmp/perf-1.map)',
  '',
].join('\n');

describe('samplesOf: the samples of a perf recording', () => {
  it('reads each sample with its thread, whatever the width of its id, and its frames innermost first', () => {
    expect([...samplesOf(script)]).toEqual([
      { tid: '5023', frames: ['v8::internal::FieldIndex::ForPropertyIndex (/usr/bin/node)', 'v8::internal::Runtime_ObjectEntries (/usr/bin/node)'] },
      { tid: '12345', frames: ['JS:*pay file:///srv/dist/server/main.js:3269:19 (/tmp/perf-1.map)'] },
    ]);
  });
});
