import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '../../../src/config';
import { signToken } from '../../../src/auth/token-signer';
import { signPaymentPayload } from '../../../src/modules/webhooks';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { bearer, userClient, type UserClient } from '../../support/http';
import { freePort, startServerProcess, type ServerProcess } from '../../support/server-process';
import { eventually, sleep } from '../../support/wait';

// Background jobs across processes: two worker processes and an API-only replica over one
// PostgreSQL and one Redis (CI's second pass sets both).
const shared = process.env.DATABASE_URL && process.env.REDIS_URL;
const describeShared = shared ? describe : describe.skip;

/** The exclusive background tasks of the registry, as `<module>:<task>` lease names. */
const EXCLUSIVE = [
  'execution:order reconciler',
  'funding:withdrawal dispatch',
  'ingestion:simulated live trades',
  'ingestion:venue streams',
  'rewards:reward settlement',
  'routing:route intent purge',
];
const SECRET = 'whsec_multi_process_test';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

interface Ready {
  status: string;
  workers: boolean;
  leases: string[];
}

async function readiness(s: ServerProcess): Promise<Ready> {
  return (await (await fetch(`${s.url}/health/ready`)).json()) as Ready;
}

describeShared('exclusive background jobs across processes (PostgreSQL + Redis)', () => {
  const schema = `mpj_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let upstream: FakeUpstream;
  let a: ServerProcess;
  let b: ServerProcess;
  let api: ServerProcess;
  /** Payout calls per withdrawal (the processor's `reference`). */
  const payouts = new Map<string, number>();

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (req) => {
      if (req.path === '/v1/payouts') {
        const ref = (req.body as { reference: string }).reference;
        payouts.set(ref, (payouts.get(ref) ?? 0) + 1);
        // The processor's latency, kept on purpose (no event stands behind it): each payout call spans
        // several dispatch intervals (WITHDRAWAL_DISPATCH_MS), the window in which another round or
        // process could pick the same payout.
        await sleep(300);
        return { body: { id: `po_${ref}`, status: 'pending' } };
      }
      if (req.path === '/v1/onramp/sessions')
        return { body: { id: `sess_${randomUUID()}`, url: 'https://pay.example/s' } };
      return { status: 404 };
    });
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('schema', schema);
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: `mpj:${randomUUID()}:`,
      PAYMENT_PROCESSOR_URL: upstream.url,
      PAYMENT_PROCESSOR_API_KEY: 'pp-key',
      PAYMENT_WEBHOOK_SECRET: SECRET,
      WITHDRAWAL_DISPATCH_MS: '100',
      LEASE_TTL_MS: '3000',
      SIM_TRADE_RATE: '0',
      SIM_BACKFILL_TRADES: '0',
    };
    // The first migrates and seeds; the second finds the database ready; the API-only replica
    // neither migrates nor seeds nor runs an exclusive job.
    a = await startServerProcess(env, await freePort());
    b = await startServerProcess({ ...env, MIGRATE_ON_START: 'off', SEED_ON_START: 'off' }, await freePort());
    api = await startServerProcess(
      { ...env, WORKERS: 'off', MIGRATE_ON_START: 'off', SEED_ON_START: 'off' },
      await freePort(),
    );
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), api?.stop()]);
    await upstream?.close();
    const pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
  });

  /** A user of the deployment whose requests go to `s`, with its user token (or its wallet-auth token). */
  const as = (s: ServerProcess, sub: string, token: 'user' | 'wallet' = 'user'): UserClient =>
    userClient(s.url, async () => bearer(await signToken(loadConfig({ NODE_ENV: 'test' }).auth[token], sub)));

  /** Credits `sub` through an onramp on one process and the processor's signed webhook on another. */
  async function fund(sub: string, amount: string) {
    const session = (await as(a, sub).post('/api/funding/onramp', { amount: Number(amount), currency: 'usd' }))
      .body as { processorId: string };
    const body = JSON.stringify({
      id: `evt_${randomUUID()}`,
      type: 'onramp.completed',
      data: { id: session.processorId, amountReceived: amount, currency: 'usdc' },
    });
    const ack = await fetch(`${b.url}/webhooks/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'payment-signature': signPaymentPayload(SECRET, body) },
      body,
    });
    expect(ack.status).toBe(200);
  }

  /** Requests a withdrawal on the API-only replica and waits for a worker to hand it to the processor. */
  async function withdrawAndWait(sub: string): Promise<string> {
    const r = await as(api, sub, 'wallet').post('/api/funding/withdraw', {
      amount: 5,
      chain: 'polygon',
      destination: EVM,
    });
    expect(r.status).toBe(201);
    const id = (r.body as { id: string }).id;
    await eventually(
      async () => {
        const list = (await as(api, sub).get('/api/funding/withdrawals')).body as {
          data: { id: string; status: string }[];
        };
        return list.data.find((w) => w.id === id && w.status === 'processing');
      },
      `withdrawal ${id} dispatched`,
      30_000,
    );
    return id;
  }

  it('each exclusive job is held by exactly one worker process, and none by the API-only replica', async () => {
    const [ra, rb, rapi] = await Promise.all([a, b, api].map(readiness));
    expect([...ra.leases, ...rb.leases].sort()).toEqual(EXCLUSIVE);
    expect(ra.leases.filter((l) => rb.leases.includes(l))).toEqual([]);
    expect(rapi).toMatchObject({ status: 'ready', workers: false, leases: [] });
    expect([ra.workers, rb.workers]).toEqual([true, true]);
  });

  it('a withdrawal requested on the API-only replica is paid once', async () => {
    await fund('mp-payer', '20');
    const id = await withdrawAndWait('mp-payer');
    // Further dispatch rounds leave it alone: a withdrawal requested after it is dispatched by a later round.
    const later = await withdrawAndWait('mp-payer');
    expect([payouts.get(id), payouts.get(later)]).toEqual([1, 1]);
  }, 60_000);

  it('when the worker holding withdrawal dispatch dies, the other takes its jobs over', async () => {
    const holder = (await readiness(a)).leases.includes('funding:withdrawal dispatch') ? a : b;
    const survivor = holder === a ? b : a;
    holder.child.kill('SIGKILL');
    await eventually(
      async () => ((await readiness(survivor)).leases.length === EXCLUSIVE.length ? true : undefined),
      'the survivor holds every exclusive job',
      30_000,
    );
    expect((await readiness(survivor)).leases.sort()).toEqual(EXCLUSIVE);
    const id = await withdrawAndWait('mp-payer');
    expect(payouts.get(id)).toBe(1);
    expect((await readiness(api)).leases).toEqual([]);
  }, 90_000);
});
