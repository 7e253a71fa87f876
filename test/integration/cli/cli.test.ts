import type { ListEventsQuery } from '../../../schema/generated/operations';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createJwtVerifier } from '../../../src/auth/jwt-verifier';
import { loadConfig } from '../../../src/config';
import { freePort, runCli, startServerProcess } from '../../support/server-process';

describe('token CLI', () => {
  it(
    'prints a user token, and a wallet-auth token with --wallet, each verifiable with its own secret ' + 'only',
    async () => {
      const env = {
        AUTH_JWT_SECRET: 'cli-test-user-secret-0123456789abcdef',
        WALLET_AUTH_JWT_SECRET: 'cli-test-wallet-secret-0123456789abcdef',
        AUTH_JWT_ISSUER: 'https://id.cli-test.example/',
        AUTH_JWT_AUDIENCE: 'cli-test-api',
      };
      const user = runCli('token.cli.ts', ['--sub', 'user-42'], env);
      const wallet = runCli('token.cli.ts', ['--sub', 'user-42', '--wallet'], env);
      expect(user.status).toBe(0);
      expect(user.stdout.split('\n')).toHaveLength(1);
      const config = loadConfig(env);
      const userVerifier = createJwtVerifier(config.auth.user, 'user');
      const walletVerifier = createJwtVerifier(config.auth.wallet, 'wallet-auth');
      await expect(userVerifier.verify(user.stdout)).resolves.toMatchObject({ subject: 'user-42' });
      await expect(walletVerifier.verify(wallet.stdout)).resolves.toMatchObject({ subject: 'user-42' });
      await expect(userVerifier.verify(wallet.stdout)).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(walletVerifier.verify(user.stdout)).rejects.toMatchObject({ code: 'unauthorized' });
      // Each passes the checks a production verifier makes: it expires, names its kind, issuer and audience.
      for (const [token, use] of [
        [user.stdout, 'access'],
        [wallet.stdout, 'wallet'],
      ] as const) {
        const claims = JSON.parse(Buffer.from(token.trim().split('.')[1], 'base64url').toString('utf8')) as Record<
          string,
          unknown
        >;
        expect(claims).toMatchObject({
          sub: 'user-42',
          token_use: use,
          iss: env.AUTH_JWT_ISSUER,
          aud: env.AUTH_JWT_AUDIENCE,
          exp: expect.any(Number),
        });
      }
    },
  );

  it('fails with a usage line without --sub', () => {
    const r = runCli('token.cli.ts', [], {});
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/usage: token --sub/);
  });
});

// The embedded database admits one process: the CLI opens it when no server
// runs, and asks the server that owns it otherwise.
/** Two CLI runs and a server start, each a fresh process that compiles the sources: minutes on a busy 2-core host. */
const SPAWNED_CLI_TIMEOUT_MS = 180_000;

(process.env.DATABASE_URL ? describe.skip : describe)('seed CLI (embedded)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'seed-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'seeds an empty data folder, idempotently, then goes through the running server',
    async () => {
      const first = runCli('seed.cli.ts', [], { DATA_DIR: dir });
      expect(first.stderr).toBe('');
      const a = JSON.parse(first.stdout) as { via: string; events: number; markets: number };
      expect(a.via).toBe('database');
      expect(a.events).toBeGreaterThanOrEqual(60);
      const second = JSON.parse(runCli('seed.cli.ts', [], { DATA_DIR: dir }).stdout) as typeof a;
      expect(second).toEqual(a);

      const server = await startServerProcess({ DATA_DIR: dir, SIM_TRADE_RATE: '0' }, await freePort());
      try {
        const viaServer = JSON.parse(runCli('seed.cli.ts', [], { DATA_DIR: dir }).stdout) as typeof a;
        expect(viaServer).toEqual({ ...a, via: 'server' });
        const page = (await (await fetch(`${server.url}/api/events?pageSize=1`)).json()) as ListEventsQuery['events'];
        expect(page.total).toBe(a.events);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    SPAWNED_CLI_TIMEOUT_MS,
  );
});
