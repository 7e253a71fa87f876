/**
 * Loads a package with Node's own CommonJS loader.
 *
 * PGlite's CommonJS build loads Node built-ins with dynamic `import()` at run time.
 * Jest evaluates modules in a `vm` context where `import()` throws unless Node runs
 * with `--experimental-vm-modules`, so PGlite (and the adapter and extensions that must
 * share its module instance) is loaded through `Module.prototype.require`, which always
 * runs Node's loader. Outside Jest this is exactly `require`; under Jest the module
 * lives outside the test sandbox (not reset between test files, not mockable), and
 * what it returns is plain data (rows of strings, numbers, arrays), which is all the
 * Prisma adapters pass on.
 */
import Module from 'node:module';

/** `require(id)` through Node's own loader, resolved from this folder. */
export function nativeRequire<T>(id: string): T {
  const host = new Module(__filename) as Module & { filename: string; require(path: string): unknown };
  host.filename = __filename;
  return host.require(require.resolve(id)) as T;
}
