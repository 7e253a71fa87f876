/**
 * Template cache for in-memory PGlites. A new PGlite runs `initdb` (1.5–2 s); loading a
 * saved freshly initialised cluster (`loadDataDir`) takes ~0.5 s. The first in-memory
 * PGlite saves its cluster (right after initdb and the extensions, before anything
 * else) as a tarball in the template folder; later ones, in any process, load it.
 *
 * The file is keyed by the PGlite version and the extension list; it is written to a
 * temporary name and renamed, so concurrent processes never read a partial file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Extensions, PGlite } from '@electric-sql/pglite';
import * as tar from 'tar';
import { nativeRequire } from './native-require.util';

/** The PGlite class, loaded with Node's own loader (see native-require.util.ts). */
export function loadPGlite(): typeof PGlite {
  return nativeRequire<typeof import('@electric-sql/pglite')>('@electric-sql/pglite').PGlite;
}

/**
 * PGlite's server settings plus a smaller buffer pool. PostgreSQL's default 128 MB of
 * shared buffers lives in the WebAssembly heap, which never shrinks: once a process has
 * read its tables it holds them twice (the pool and the OS page cache). 16 MB keeps the
 * demo world's hot pages; the rest is read through the page cache. Measured on an idle
 * embedded server: about 110 MB less resident memory.
 */
export function pgliteStartParams(): string[] {
  return [...loadPGlite().defaultStartParams, '-c', 'shared_buffers=16MB'];
}

export function pgliteVersion(): string {
  const file = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function templateFile(templateDir: string, extensions: Extensions): string {
  const names = Object.keys(extensions).sort().join('-') || 'none';
  return join(templateDir, `pglite-${pgliteVersion()}-${names}.tar`);
}

/** A saved data folder (a tarball of `dumpDataDir`), or undefined when there is none or it cannot be read. */
function readDataDirArchive(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Unpacks a saved data folder (see {@link writeDataDirArchive}) into `dataDir` on disk,
 * for a PGlite then opened on that folder. PGlite can load the archive itself
 * (`loadDataDir`), but it holds it in memory several times over while it does (the file,
 * a Blob, its ArrayBuffer, each entry's copy), and a process that did so stayed about
 * 250 MB larger for the rest of its life; node-tar streams it from the file. The files
 * land in a sibling folder renamed into place, so a folder is either whole or absent.
 * False (and nothing left behind) when the archive is missing or cannot be unpacked.
 */
export function extractDataDirArchive(file: string, dataDir: string): boolean {
  if (!existsSync(file)) return false;
  const staging = `${dataDir}.${process.pid}.${randomBytes(4).toString('hex')}.loading`;
  try {
    mkdirSync(staging, { recursive: true });
    // The archive's names are absolute within the folder (`/PG_VERSION`): node-tar roots them at
    // `cwd` and says so (TAR_ENTRY_INFO); any other complaint means a damaged archive.
    let damaged = false;
    tar.x({
      file,
      cwd: staging,
      sync: true,
      // Reads of 256 KiB, not node-tar's 16 MiB: the large buffers stayed in the allocator's
      // arena after the unpack, about 30 MB resident for the life of the process; as fast.
      maxReadSize: 256 * 1024,
      onwarn: (code) => {
        if (code !== 'TAR_ENTRY_INFO') damaged = true;
      },
    });
    if (damaged || !existsSync(join(staging, 'PG_VERSION'))) return false;
    rmSync(dataDir, { recursive: true, force: true }); // an empty folder made for it, if any
    renameSync(staging, dataDir);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Saves a PGlite's whole data folder as a tarball, written under a temporary name and
 * renamed, so concurrent processes never read a partial file; throws when it cannot.
 */
export async function writeDataDirArchive(db: PGlite, file: string): Promise<void> {
  const tarball = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, tarball);
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}

async function saveTemplate(db: PGlite, file: string): Promise<void> {
  // A cache: failing to save only costs time later.
  await writeDataDirArchive(db, file).catch(() => undefined);
}

/**
 * Creates an in-memory PGlite with `extensions` created (`CREATE EXTENSION`) from the
 * template in `templateDir`, making the template first when it is missing or unreadable.
 */
export async function createPGliteFromTemplate(templateDir: string, extensions: Extensions): Promise<PGlite> {
  const file = templateFile(templateDir, extensions);
  const tarball = readDataDirArchive(file);
  if (tarball) {
    try {
      return await loadPGlite().create({
        extensions,
        loadDataDir: new Blob([tarball]),
        startParams: pgliteStartParams(),
      });
    } catch {
      rmSync(file, { force: true }); // corrupt or incompatible: make it again
    }
  }
  const db = await loadPGlite().create({ extensions, startParams: pgliteStartParams() });
  try {
    await createExtensions(db, extensions);
    await saveTemplate(db, file);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** Runs `CREATE EXTENSION IF NOT EXISTS` for each loaded extension. */
export async function createExtensions(db: PGlite, extensions: Extensions): Promise<void> {
  for (const name of Object.keys(extensions)) {
    await db.exec(`CREATE EXTENSION IF NOT EXISTS "${name}"`);
  }
}
