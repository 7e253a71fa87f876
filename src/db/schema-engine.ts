/**
 * Loads Prisma's WebAssembly schema engine (`@prisma/schema-engine-wasm`) by hand and
 * starts engines on driver adapters. The Prisma CLI's migrate commands need a native
 * engine download; this one runs offline against PGlite or PostgreSQL (through `pg`).
 *
 * The package is ESM and imports its `.wasm` file directly, which Node cannot do, so the
 * JS glue (`schema_engine_bg.js`) is loaded on its own and the WebAssembly module is
 * compiled and instantiated here with the glue's exports as imports. One instance
 * serves every engine of the process (of each Jest test file).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { ConstructorOptions, SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';

export type {
  ApplyMigrationsOutput,
  CreateMigrationOutput,
  DiffResult,
  MigrationList,
  SchemaEngine,
  SchemaFilter,
} from '@prisma/schema-engine-wasm/schema_engine_bg';

const GLUE_ID = '@prisma/schema-engine-wasm/schema_engine_bg';
/** Module name the wasm binary imports its JS glue functions from. */
const GLUE_IMPORT_MODULE = './schema_engine_bg.js';

/** The part of the WebAssembly JS API used here (`@types/node` 20 does not declare it). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: Record<string, WasmImports>): Promise<{ exports: WasmExports }>;
  RuntimeError: abstract new (...args: never[]) => Error;
}
type WasmImports = Record<string, (...args: never[]) => unknown>;
type WasmExports = Record<string, unknown>;
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The subset of the glue module this file uses (the rest is passed through as imports). */
interface EngineGlue {
  __wbg_set_wasm(exports: WasmExports): void;
  SchemaEngine: {
    new: (options: ConstructorOptions, log: (line: string) => void, adapter: object) => Promise<SchemaEngine>;
  };
  version(): string;
  [name: string]: unknown;
}

/** What the glue calls on a Rust panic (`global.PRISMA_WASM_PANIC_REGISTRY.set_message`). */
interface PanicRegistry {
  set_message(message: string): void;
}

/** Remembers the last panic message so that the following trap can be explained. */
class EnginePanicRegistry implements PanicRegistry {
  message = '';
  set_message(message: string): void {
    this.message = message;
  }
}

const panicRegistry = new EnginePanicRegistry();
let gluePromise: Promise<EngineGlue> | undefined;

/**
 * Evaluates a fresh copy of the glue module (`schema_engine_bg.js`: no imports, only
 * `export function|class|const|let` declarations) in the current realm.
 *
 * Not `require()`: Jest's module system cannot load ESM (and `import()` needs
 * `--experimental-vm-modules` there), and a fresh copy per instance is needed anyway
 * to recover from a panic — the glue caches views of the instance's memory.
 */
function loadGlueModule(): EngineGlue {
  const source = readFileSync(require.resolve(GLUE_ID), 'utf8');
  const names: string[] = [];
  const body = source.replace(
    /^export (function|class|const|let|var) ([\w$]+)/gm,
    (_match, keyword: string, name: string) => {
      names.push(name);
      return `${keyword} ${name}`;
    },
  );
  if (/^\s*(import|export)\b/m.test(body) || !names.includes('SchemaEngine')) {
    throw new Error(`Unexpected module syntax in ${GLUE_ID}: cannot load the schema engine`);
  }
  // The glue is CommonJS-free module code shipped by Prisma; evaluating it is how Node 20 can load it at all.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call
  return new Function(`${body}\nreturn { ${names.join(', ')} };`)() as EngineGlue;
}

/**
 * Wraps the glue's `setTimeout` imports so the engine's timers (never cleared) do not
 * keep the process alive.
 */
function buildImports(glue: EngineGlue): WasmImports {
  const imports: WasmImports = {};
  for (const [name, value] of Object.entries(glue)) {
    if (typeof value !== 'function') continue;
    if (name.startsWith('__wbg_setTimeout_')) {
      const setTimer = value as (...args: unknown[]) => unknown;
      imports[name] = (...args: unknown[]) => {
        const timer = setTimer(...args);
        (timer as { unref?: () => void } | null)?.unref?.();
        return timer;
      };
    } else {
      imports[name] = value as (...args: unknown[]) => unknown;
    }
  }
  return imports;
}

async function instantiateGlue(): Promise<EngineGlue> {
  const globals = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: PanicRegistry };
  // @prisma/client installs its own registry (it throws a panic error): keep whichever is first.
  globals.PRISMA_WASM_PANIC_REGISTRY ??= panicRegistry;
  const glue = loadGlueModule();
  const wasmPath = join(dirname(require.resolve(GLUE_ID)), 'schema_engine_bg.wasm');
  const wasmModule = await wasmApi.compile(readFileSync(wasmPath));
  const instance = await wasmApi.instantiate(wasmModule, { [GLUE_IMPORT_MODULE]: buildImports(glue) });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

/** Loads and instantiates the wasm schema engine once per module registry. */
function getGlue(): Promise<EngineGlue> {
  gluePromise ??= instantiateGlue().catch((error: unknown) => {
    gluePromise = undefined;
    throw error;
  });
  return gluePromise;
}

/** Version (prisma-engines commit) of the loaded wasm schema engine. */
export async function schemaEngineVersion(): Promise<string> {
  return (await getGlue()).version();
}

/** Options of {@link startSchemaEngine}. */
export interface StartSchemaEngineOptions {
  /** The Prisma schema files (path as shown in errors, and content). */
  schemaFiles: ReadonlyArray<{ path: string; content: string }>;
  /** Driver adapter factory of the database to migrate (`connectToShadowDb` gives the shadow DB). */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** Receives the engine's log lines (JSON); ignored when unset. */
  onLog?: (line: string) => void;
}

/** A running engine; `free()` it when done (it disposes the adapter it connected). */
export interface SchemaEngineHandle {
  readonly engine: SchemaEngine;
  /** Runs one engine command, adding the panic message when the wasm traps. */
  run<T>(command: (engine: SchemaEngine) => Promise<T>): Promise<T>;
  free(): void;
}

/**
 * Starts a schema engine on a driver adapter factory. The factory is wrapped with
 * `bindMigrationAwareSqlAdapterFactory` (the engine expects error-capturing results).
 */
export async function startSchemaEngine(options: StartSchemaEngineOptions): Promise<SchemaEngineHandle> {
  const glue = await getGlue();
  const log = options.onLog ?? (() => undefined);
  const engine = await withPanicMessage(() =>
    glue.SchemaEngine.new(
      { datamodels: options.schemaFiles.map((file) => [file.path, file.content]) },
      log,
      bindMigrationAwareSqlAdapterFactory(options.adapterFactory),
    ),
  );
  let freed = false;
  let panicked = false;
  return {
    engine,
    run: (command) =>
      withPanicMessage(
        () => command(engine),
        () => (panicked = true),
      ),
    free: () => {
      if (freed) return;
      freed = true;
      // After a panic the instance is left inconsistent: it is dropped, not freed.
      if (!panicked) engine.free();
    },
  };
}

async function withPanicMessage<T>(action: () => Promise<T>, onPanic?: () => void): Promise<T> {
  panicRegistry.message = '';
  try {
    return await action();
  } catch (error) {
    const trapped = error instanceof wasmApi.RuntimeError;
    if (trapped || (error as Error | null)?.name === 'PrismaClientRustPanicError') {
      // A panicked instance is unusable: instantiate a fresh one next time. (The panic
      // message is ours, or thrown by @prisma/client's registry when it was set first.)
      gluePromise = undefined;
      onPanic?.();
      if (trapped && panicRegistry.message) error.message = `schema engine ${panicRegistry.message} (${error.message})`;
    }
    throw error;
  }
}
