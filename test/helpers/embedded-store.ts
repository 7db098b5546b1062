import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * A fresh embedded store without paying for its `initdb` each time. PGlite's first open of an empty
 * folder creates a new PostgreSQL cluster in it, which takes seconds of WebAssembly (3 to 8 s on a
 * shared 2-core machine), while opening a cluster that exists takes a fraction of one. The suites
 * open dozens of fresh stores, so one empty cluster is made by PGlite once, kept in
 * `node_modules/.cache` per PGlite version, and copied into each new store's folder: what a runner
 * then opens is exactly the folder PGlite's first open would have left there, and the runner still
 * creates its own tables in it. The first open of an empty folder stays tested where it is the
 * point (the demo started as a newcomer starts it, the change feed on a new folder).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const PGLITE_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string }
).version;
const TEMPLATE = join(ROOT, 'node_modules', '.cache', 'copilotkit-interrupts-pglite', PGLITE_VERSION, 'empty-cluster');

let made: Promise<string> | undefined;

/** The empty cluster, made on first use (by whichever worker comes first: the folder is renamed into place whole). */
function template(): Promise<string> {
  made ??= (async () => {
    if (existsSync(join(TEMPLATE, 'PG_VERSION'))) return TEMPLATE;
    mkdirSync(dirname(TEMPLATE), { recursive: true });
    const scratch = mkdtempSync(`${TEMPLATE}-`);
    const db = await PGlite.create(join(scratch, 'cluster'));
    await db.query('SELECT 1');
    await db.close();
    try {
      renameSync(join(scratch, 'cluster'), TEMPLATE);
    } catch (error) {
      // Another worker put its own there first: the same empty cluster.
      if (!existsSync(join(TEMPLATE, 'PG_VERSION'))) throw error;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return TEMPLATE;
  })();
  return made;
}

/** Puts a new, empty embedded store at `dataDir` (which must not exist yet) and returns `dataDir`. */
export async function emptyEmbeddedStore(dataDir: string): Promise<string> {
  cpSync(await template(), dataDir, { recursive: true });
  return dataDir;
}
