import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROUTES } from '../../../rest-adapter/routes';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('generated files clients consume', () => {
  it('schema/schema.graphql, the codegen output and schema/openapi.json are fresh (run `npm run codegen`)', () => {
    // In a child process: codegen loads ESM modules that Jest's sandbox cannot.
    const r = spawnSync(process.execPath, ['-r', './scripts/register.js', 'scripts/generated-files.ts', 'check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('the OpenAPI document covers every route of the table with its statuses', () => {
    const doc = JSON.parse(readFileSync(path.join(ROOT, 'schema/openapi.json'), 'utf8')) as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { operationId: string; responses: Record<string, unknown>; parameters: { name: string }[] }>
      >;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const r of ROUTES) {
      const full = `${r.surface === 'market-data' ? '/market-data' : ''}${r.path}`;
      const op = doc.paths[full]?.[r.method.toLowerCase()];
      expect(op?.operationId).toBe(r.id);
      expect(Object.keys(op.responses).sort()).toEqual([String(r.status ?? 200), ...r.errors.map(String)].sort());
      for (const name of Object.keys(r.params?.query?.shape ?? {}))
        expect(op.parameters.map((p) => p.name)).toContain(name);
    }
    const list = doc.paths['/api/events'].get;
    const page = (list.parameters as unknown as { name: string; schema: { minimum: number; maximum: number } }[]).find(
      (p) => p.name === 'page',
    )!;
    expect(page.schema).toMatchObject({ minimum: 1, maximum: 2000 });
  });
});
