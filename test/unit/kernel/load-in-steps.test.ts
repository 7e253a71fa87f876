import { readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_LOAD_STEPS, loadInSteps } from '../../../src/load-in-steps';

const SRC = path.resolve(__dirname, '../../../src');

/** The relative imports of a source file, in order, as paths from src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  return [...text.matchAll(/^import [^;]*? from '(\.[^']+)';$/gms)].map(
    (m) => `./${path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), m[1]))}`,
  );
}

describe('loading the app in steps (the entry point answers /health between them)', () => {
  it("lists every module of the registry, in the registry's import order", () => {
    const registry = importsOf('modules/registry.ts').filter((p) => p.endsWith('.module'));
    const listed = APP_LOAD_STEPS.filter((p) => p.endsWith('.module'));
    expect(listed).toEqual(registry);
  });

  it('ends with the composition root and the server, so nothing is left to load after the steps', () => {
    expect(APP_LOAD_STEPS.slice(-2)).toEqual(['./services', './server']);
  });

  it('loads each step in order, yielding to the event loop after each', async () => {
    const events: string[] = [];
    // A callback already waiting (a request that arrived): it runs after the first step, before the second.
    setImmediate(() => events.push('turn'));
    await loadInSteps(['a', 'b'], (id) => events.push(`load ${id}`));
    expect(events).toEqual(['load a', 'turn', 'load b']);
  });
});
