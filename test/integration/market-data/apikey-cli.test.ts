import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/db/database';
import type { MdApiKeysQuery } from '../../../schema/generated/operations';
import { hashApiKey } from '../../../src/modules/api-keys';
import { bearer } from '../../support/app';
import { TEST_DATABASE_OPTIONS, randomSchemaName } from '../../support/db';
import { freePort, runCli, startServerProcess, type CliRun } from '../../support/server-process';

interface Printed {
  via: string;
  id: string;
  key: string;
  key_preview: string;
  owner: string;
  scopes: string[];
  plan: string;
}

const apikey = (args: string[], env: Record<string, string>) => runCli('apikey.cli.ts', args, env);

function printed(r: CliRun): Printed {
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout.split('\n')).toHaveLength(1);
  return JSON.parse(r.stdout) as Printed;
}

describe('apikey CLI', () => {
  it('refuses incomplete or invalid arguments with a usage line', () => {
    for (const args of [
      [],
      ['--owner', 'acme', '--name', 'x'],
      ['--owner', 'acme', '--name', 'x', '--scopes', 'read,admin'],
      ['--owner', 'acme', '--name', 'x', '--scopes', 'read', '--plan', 'gold'],
    ]) {
      const r = apikey(args, { DATA_DIR: '/nonexistent-never-opened' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/usage: apikey|--scopes|--plan/);
    }
  });
});

// The embedded database admits one process: the CLI opens it when no server
// runs, and asks the server that owns it otherwise.
/** Two CLI runs and a server start, each a fresh process that compiles the sources: minutes on a busy 2-core host. */
const SPAWNED_CLI_TIMEOUT_MS = 180_000;

(process.env.DATABASE_URL ? describe.skip : describe)('apikey CLI (embedded)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'apikey-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'creates a key in the database, then through the running server; both authenticate',
    async () => {
      const first = printed(
        apikey(['--owner', 'acme', '--name', 'bootstrap', '--scopes', 'read,write', '--plan', 'pro'], {
          DATA_DIR: dir,
        }),
      );
      expect(first).toMatchObject({
        via: 'database',
        id: expect.stringMatching(/^key_/),
        owner: 'acme',
        scopes: ['read', 'write'],
        plan: 'pro',
      });
      expect(first.key).toMatch(/^mk_live_[0-9A-Za-z]{33}$/);

      const server = await startServerProcess({ DATA_DIR: dir, SIM_TRADE_RATE: '0' }, await freePort());
      try {
        const second = printed(apikey(['--owner', 'acme', '--name', 'second', '--scopes', 'read'], { DATA_DIR: dir }));
        expect(second).toMatchObject({ via: 'server', owner: 'acme', scopes: ['read'], plan: 'free' });
        const res = await fetch(`${server.url}/market-data/api/keys`, { headers: { 'x-api-key': first.key } });
        expect(res.status).toBe(200);
        const keys = (await res.json()) as MdApiKeysQuery['apiKeys'];
        expect(keys.map((k) => k.id)).toEqual([first.id, second.id]);
        expect(keys[1].key_preview).toBe(second.key_preview);
        const bySecond = await fetch(`${server.url}/market-data/api/events/categories`, {
          headers: bearer(second.key),
        });
        expect(bySecond.status).toBe(200);
        expect(bySecond.headers.get('x-ratelimit-limit')).toBe('60');
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    SPAWNED_CLI_TIMEOUT_MS,
  );
});

(process.env.DATABASE_URL ? describe : describe.skip)('apikey CLI (PostgreSQL)', () => {
  it('writes the key to the database named by DATABASE_URL, storing only its hash', async () => {
    const schema = randomSchemaName();
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('schema', schema);
    const db = await openDatabase({
      ...TEST_DATABASE_OPTIONS,
      databaseUrl: process.env.DATABASE_URL,
      schema,
      poolSize: 2,
    });
    try {
      const out = printed(
        apikey(['--owner', 'acme', '--name', 'ci', '--scopes', 'read', '--plan', 'enterprise'], {
          DATABASE_URL: url.toString(),
        }),
      );
      expect(out).toMatchObject({ via: 'database', plan: 'enterprise' });
      const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: out.id } });
      expect(row.keyHash).toBe(hashApiKey(out.key));
      expect(JSON.stringify(row)).not.toContain(out.key);
    } finally {
      await db.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.close();
    }
  });
});
