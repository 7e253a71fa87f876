import { ApiKeysService } from '../../../src/modules/api-keys/api-keys.service';
import { http, startTestApp, type TestApp } from '../../support/app';
import { FUZZ_ENV, closeFuzzConnections, fuzzApp, type FuzzCredentials } from '../../fuzz/route-fuzz';

/**
 * The route table under malformed input (see test/fuzz/route-fuzz.ts): a few
 * hundred cases per run here (FUZZ_RUNS for more; `npm run fuzz` runs the long
 * version), the seed printed for replay with FUZZ_SEED.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

let app: TestApp;
let creds: FuzzCredentials;

beforeAll(async () => {
  app = await startTestApp(FUZZ_ENV);
  const key = await app.services.get(ApiKeysService).create({
    owner: 'fuzz-owner',
    name: 'fuzz key',
    scopes: ['read', 'write'],
    plan: 'enterprise',
  });
  creds = {
    bearer: await app.token('fuzz-user'),
    walletBearer: await app.walletToken('fuzz-user'),
    apiKey: key.key,
    adminToken: FUZZ_ENV.ADMIN_TOKEN,
    rewardsAdminToken: FUZZ_ENV.REWARDS_ADMIN_TOKEN,
    feedIngestToken: FUZZ_ENV.FEED_INGEST_TOKEN,
    indexerSecret: FUZZ_ENV.INDEXER_SHARED_SECRET,
  };
});
afterAll(async () => {
  closeFuzzConnections();
  await app?.close();
});

it(`no documented operation answers 5xx to malformed input, every 4xx has the error body (${RUNS} cases)`, async () => {
  const lines: string[] = [];
  const report = await fuzzApp(app, creds, RUNS, (line) => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  });
  const counts = Object.entries(report.byStatus)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  process.stdout.write(`route fuzz: seed ${report.seed}, answers by status: ${counts}\n`);
  expect(Object.keys(report.byStatus).filter((s) => Number(s) >= 500)).toEqual([]);
  expect((await http(`${app.url}/health`)).status).toBe(200);
}, 3_600_000);
