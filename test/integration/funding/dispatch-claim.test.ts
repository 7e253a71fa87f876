import { WithdrawalsService } from '../../../src/modules/funding/withdrawals.service';
import { startTestApp, type TestApp } from '../../support/app';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream';
import { fund } from '../../support/funding';
import { eventually, waitFor } from '../../support/wait';

const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

// Two dispatchers (two processes of one deployment) over one database: each payout is claimed
// by one of them before the processor is called. A third stands for a process that dies mid-call.
describe('withdrawal dispatch claims each payout', () => {
  let upstream: FakeUpstream;
  let first: TestApp;
  let second: TestApp;
  let third: TestApp;
  const calls: string[] = [];
  let failing = false;
  /** When set, the processor's next answer waits for it. */
  let held: Promise<void> | null = null;
  /** The processor answers no call until this many are in (each dispatcher inside a call at once). */
  let answerOnceCalled = 0;

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (req) => {
      if (req.path !== '/v1/payouts') return { status: 404 };
      const ref = (req.body as { reference: string }).reference;
      calls.push(ref);
      await waitFor(() => calls.length >= answerOnceCalled, `${answerOnceCalled} processor calls at once`);
      const hold = held;
      held = null;
      if (hold) await hold;
      return failing ? { status: 503 } : { body: { id: `po_${ref}`, status: 'pending' } };
    });
    const env = {
      PAYMENT_PROCESSOR_URL: upstream.url,
      PAYMENT_PROCESSOR_API_KEY: 'k',
      WITHDRAWAL_DISPATCH_MS: '0',
      // A claim lasts 1 s unless its dispatcher renews it (every third of that while the call runs).
      WITHDRAWAL_CLAIM_MS: '1000',
    };
    first = await startTestApp(env);
    second = await startTestApp(env, {}, { shareWith: first });
    third = await startTestApp(env, {}, { shareWith: first });
  });
  afterAll(async () => {
    await third.close();
    await second.close();
    await first.close();
    await upstream.close();
  });

  /** A queued withdrawal of `amount` for `user` (funded first); its id. */
  async function queued(user: string, amount: number): Promise<string> {
    await fund(first, user, amount);
    const r = await first.asWallet(user).post('/api/funding/withdraw', { amount, chain: 'polygon', destination: EVM });
    expect(r.status).toBe(201);
    return (r.body as { id: string }).id;
  }

  /** Holds the processor's next answer until the returned function is called. */
  function holdProcessor(): () => void {
    let release!: () => void;
    held = new Promise<void>((resolve) => (release = resolve));
    return release;
  }

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
    // Both dispatchers read the withdrawals as queued and each calls the processor before either answer comes back.
    answerOnceCalled = 2;
    const moved = await dispatchBoth().finally(() => (answerOnceCalled = 0));
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

  it('a dispatcher whose process died mid-call: another takes its claim over at once, for one payout', async () => {
    calls.length = 0;
    const id = await queued('dying', 7);
    const release = holdProcessor();
    // The third process claims it and calls the processor, then dies (its owner row goes, as a lapsed lease reads).
    const cut = third.services.get(WithdrawalsService).dispatch();
    await waitFor(() => calls.length === 1, 'the processor is called');
    expect(await second.services.get(WithdrawalsService).dispatch()).toBe(0);
    await third.services.owner.stop();
    expect(await second.services.get(WithdrawalsService).dispatch()).toBe(1);
    // The same reference twice: the processor's idempotency key makes it one payout.
    expect(calls).toEqual([id, id]);
    const w = await first.services.db.prisma.withdrawal.findUniqueOrThrow({ where: { id } });
    expect(w).toMatchObject({ status: 'processing', payoutId: `po_${id}`, dispatchClaimedUntil: null });
    // The dead dispatcher's answer, arriving late, changes nothing.
    release();
    expect(await cut).toBe(0);
  });

  it('a live dispatcher keeps its claim past WITHDRAWAL_CLAIM_MS during its call; a lapsed claim is free', async () => {
    calls.length = 0;
    const id = await queued('patient', 3);
    const release = holdProcessor();
    const prisma = first.services.db.prisma;
    const running = first.services.get(WithdrawalsService).dispatch();
    await waitFor(() => calls.length === 1, 'the processor is called');
    const claimed = await prisma.withdrawal.findUniqueOrThrow({ where: { id } });
    // Renewed while the call runs: the claim moves on past its first end, and no one else takes it.
    await eventually(async () => {
      const w = await prisma.withdrawal.findUniqueOrThrow({ where: { id } });
      return w.dispatchClaimedUntil! > new Date(claimed.dispatchClaimedUntil!.getTime() + 500) ? w : undefined;
    }, 'the claim is renewed');
    expect(await second.services.get(WithdrawalsService).dispatch()).toBe(0);
    release();
    expect(await running).toBe(1);
    expect(calls).toEqual([id]);

    // A claim whose time has passed is free, even when its process lives (a dispatcher that stopped renewing).
    const stuck = await queued('stuck', 2);
    await prisma.withdrawal.update({
      where: { id: stuck },
      data: { dispatchClaimedUntil: new Date(Date.now() - 1), dispatchOwnerId: first.services.owner.id },
    });
    expect(await second.services.get(WithdrawalsService).dispatch()).toBe(1);
    expect(calls).toEqual([id, stuck]);
  });
});
