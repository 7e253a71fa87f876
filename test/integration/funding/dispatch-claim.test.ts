import { WithdrawalsService } from '../../../src/modules/funding/withdrawals.service';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { fund } from '../../support/funding';
import { sleep } from '../../support/wait';

const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

// Two dispatchers (two processes of one deployment) over one database: each payout is claimed
// by one of them before the processor is called.
describe('withdrawal dispatch claims each payout', () => {
  let upstream: FakeUpstream;
  let first: TestApp;
  let second: TestApp;
  const calls: string[] = [];
  let failing = false;

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (req) => {
      if (req.path !== '/v1/payouts') return { status: 404 };
      const ref = (req.body as { reference: string }).reference;
      calls.push(ref);
      // Both dispatchers have read the withdrawal as queued before either answer comes back.
      await sleep(200);
      return failing ? { status: 503 } : { body: { id: `po_${ref}`, status: 'pending' } };
    });
    const env = { PAYMENT_PROCESSOR_URL: upstream.url, PAYMENT_PROCESSOR_API_KEY: 'k', WITHDRAWAL_DISPATCH_MS: '0' };
    first = await startTestApp(env);
    second = await startTestApp(env, {}, { shareWith: first });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    await upstream.close();
  });

  const dispatchBoth = () => Promise.all([first, second].map((app) => app.services.get(WithdrawalsService).dispatch()));

  it('two concurrent dispatchers call the processor once per withdrawal', async () => {
    await fund(first, 'claimer', 100);
    const ids: string[] = [];
    for (const amount of [10, 20, 30]) {
      const r = await first
        .asWallet('claimer')
        .post('/api/funding/withdraw', { amount, chain: 'polygon', destination: EVM });
      expect(r.status).toBe(201);
      ids.push((r.body as { id: string }).id);
    }
    const moved = await dispatchBoth();
    expect(moved[0] + moved[1]).toBe(3);
    expect([...calls].sort()).toEqual([...ids].sort());
    expect(await dispatchBoth()).toEqual([0, 0]);
    expect(calls).toHaveLength(3);
  });

  it('a processor failure frees the claim: the next round retries it', async () => {
    calls.length = 0;
    const r = await first
      .asWallet('claimer')
      .post('/api/funding/withdraw', { amount: 5, chain: 'polygon', destination: EVM });
    const id = (r.body as { id: string }).id;
    failing = true;
    expect(await dispatchBoth()).toEqual([0, 0]);
    expect(calls).toEqual([id]);
    failing = false;
    const moved = await dispatchBoth();
    expect(moved[0] + moved[1]).toBe(1);
    expect(calls).toEqual([id, id]);
  });
});
