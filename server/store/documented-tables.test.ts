/**
 * docs/architecture.md's Storage section names every table the migrations make, and no other: a
 * new table is documented where a newcomer looks for it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openStore } from '.';

/** The Storage section's table list: each item's first backticked name. */
function documentedTables(): string[] {
  const architecture = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
  const storage = architecture.slice(architecture.indexOf('## Storage'));
  const list = storage.slice(storage.indexOf('\nTables'), storage.indexOf('The sandbox service has its own'));
  return [...list.matchAll(/^- `([a-z_]+)`/gm)].map((match) => match[1]!);
}

it("names every table of the store's schema in docs/architecture.md", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-tables-'));
  const store = await openStore(dataDir);
  try {
    const tables = (await store.introspection.getTables()).map((table) => table.name);
    expect(tables.length).toBeGreaterThan(10);
    expect(documentedTables().sort()).toEqual(tables.sort());
  } finally {
    await store.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
