/**
 * The hand-loaded wasm schema engine: loads under Jest, reports panics, recovers.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createPGlite, PGliteAdapterFactory } from '../../../src/db/pglite.adapter';
import { PROJECT_PGLITE_TEMPLATE_DIR, PROJECT_PRISMA_PATHS } from '../../../src/db/project-paths';
import { schemaEngineVersion, startSchemaEngine } from '../../../src/db/schema-engine';

let pglite: PGlite;
const schemaFiles = [{ path: 'schema.prisma', content: readFileSync(PROJECT_PRISMA_PATHS.schemaFile, 'utf8') }];

beforeAll(async () => {
  pglite = await createPGlite({ templateDir: PROJECT_PGLITE_TEMPLATE_DIR });
});

afterAll(async () => {
  await pglite?.close();
});

it('loads the engine of the installed package', async () => {
  const packageDir = dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  expect(version.endsWith(await schemaEngineVersion())).toBe(true);
});

it('turns a panic into an error with its message, then works again', async () => {
  const adapterFactory = new PGliteAdapterFactory(pglite);
  const broken = await startSchemaEngine({ schemaFiles, adapterFactory });
  await expect(broken.run(async (engine) => engine.debugPanic())).rejects.toThrow(
    /schema engine panicked at .*debugPanic artificial panic/s,
  );
  broken.free();

  const engine = await startSchemaEngine({ schemaFiles, adapterFactory });
  try {
    await expect(engine.run((e) => e.version())).resolves.toMatch(/PostgreSQL/);
  } finally {
    engine.free();
  }
});
