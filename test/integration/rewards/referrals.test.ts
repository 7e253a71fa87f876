import type { ReferralCodeMutation, ReferralStatusQuery } from '../../../schema/generated/operations';
import { http, startTestApp, type TestApp } from '../../support/app';
import { itOnPostgres } from '../../support/modes';
import { chargeFee, refer } from './rewards-helpers';

type ReferralCode = ReferralCodeMutation['referralCode'];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ REWARDS_HOLD_SECONDS: '0', REWARDS_SETTLE_MS: '0' });
});
afterAll(async () => {
  await app.close();
});

const codeOf = async (sub: string) =>
  ((await app.as(sub).post('/api/rewards/referral/code')).body as ReferralCode).code;
const apply = (sub: string, code: string) => app.as(sub).post('/api/rewards/referral/apply', { code });
const status = async (sub: string) =>
  (await app.as(sub).get('/api/rewards/referral/status')).body as ReferralStatusQuery['referralStatus'];

describe('referral codes', () => {
  it('401 without a token', async () => {
    expect((await http(`${app.url}/api/rewards/referral/code`, { method: 'POST' })).status).toBe(401);
    expect((await http(`${app.url}/api/rewards/referral/status`)).status).toBe(401);
    expect(
      (await http(`${app.url}/api/rewards/referral/apply`, { method: 'POST', json: { code: 'ABCDEFGH' } })).status,
    ).toBe(401);
  });

  // No one transaction makes the code (a conditional update after a read): the requests interleave embedded too.
  it('POST /referral/code gets or creates one short code; concurrent first requests agree', async () => {
    const rs = await Promise.all([1, 2, 3, 4, 5].map(() => app.as('rc-a').post('/api/rewards/referral/code')));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const codes = new Set(rs.map((r) => (r.body as ReferralCode).code));
    expect(codes.size).toBe(1);
    expect([...codes][0]).toMatch(/^[A-HJKMNP-TV-Z2-9]{8}$/);
    expect(rs.filter((r) => (r.body as ReferralCode).created)).toHaveLength(1);
    const again = await app.as('rc-a').post('/api/rewards/referral/code');
    expect(again.body).toEqual({ code: [...codes][0], created: false });
    expect((await status('rc-a')).code).toBe([...codes][0]);
    expect(await codeOf('rc-b')).not.toBe([...codes][0]);
  });

  it('GET /referral/status before anything: no code, may apply', async () => {
    expect(await status('rc-new')).toEqual({
      code: null,
      referredBy: null,
      canApply: true,
      tier1Referrals: 0,
      tier2Referrals: 0,
      tier1EarnedUsd: 0,
      tier2EarnedUsd: 0,
    });
  });
});

describe('POST /api/rewards/referral/apply', () => {
  it.each([
    [{}, /^code: is required/],
    [{ code: '' }, /^code: /],
    [{ code: 'NOT-A-CODE-AT-ALL' }, /^code: /],
    [{ code: 12345678 }, /^code: /],
    [{ code: 'ABCD0FGH' }, /^code: /],
  ])('400 naming code on %j', async (body, message) => {
    const r = await app.as('ap-x').post('/api/rewards/referral/apply', body);
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(message);
  });

  it('400 for an unknown code and for your own code', async () => {
    const unknown = await apply('ap-x', 'ZZZZZZZZ');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'bad_request', message: 'code: no such referral code' });
    const own = await apply('ap-x', await codeOf('ap-x'));
    expect(own.status).toBe(400);
    expect((own.body as { message: string }).message).toBe('code: is your own referral code');
  });

  it('applies a code in any case and with dashes; status on both sides', async () => {
    const code = await codeOf('ap-parent');
    const typed = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`;
    const r = await apply('ap-child', typed);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ referredBy: { code }, canApply: false });
    expect(await status('ap-parent')).toMatchObject({ code, tier1Referrals: 1, tier2Referrals: 0 });
    await refer(app, 'ap-grandchild', 'ap-child');
    expect(await status('ap-parent')).toMatchObject({ tier1Referrals: 1, tier2Referrals: 1 });
    expect(await status('ap-child')).toMatchObject({ tier1Referrals: 1, referredBy: { code } });
  });

  it('applying any code once referred is a 409 (already referred), the same code included', async () => {
    const code = await codeOf('ap-parent');
    const same = await apply('ap-child', code);
    expect(same.status).toBe(409);
    expect(same.body).toMatchObject({ error: 'conflict', message: expect.stringMatching(/already referred/) });
    expect(await status('ap-child')).toMatchObject({ referredBy: { code } });
    const other = await apply('ap-child', await codeOf('ap-other'));
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: 'conflict', message: expect.stringMatching(/already referred/) });
  });

  it('409 for a loop, direct or longer', async () => {
    // lp-b was referred by lp-a: lp-a applying lp-b's code would close a loop.
    await refer(app, 'lp-b', 'lp-a');
    const direct = await apply('lp-a', await codeOf('lp-b'));
    expect(direct.status).toBe(409);
    expect((direct.body as { message: string }).message).toMatch(/loop/);
    // lp-c → lp-b → lp-a: lp-a applying lp-c's code too.
    await refer(app, 'lp-c', 'lp-b');
    const longer = await apply('lp-a', await codeOf('lp-c'));
    expect(longer.status).toBe(409);
    expect((await status('lp-a')).referredBy).toBeNull();
  });

  // Applications run under one lock in one transaction: PGlite runs them one at a time, so the race is PostgreSQL's
  // (the loop refused one after another is the test above).
  itOnPostgres(
    'concurrent applications that would close a loop between them: one wins, the other is a 409',
    async () => {
      const [codeX, codeY] = [await codeOf('cl-x'), await codeOf('cl-y')];
      const [rx, ry] = await Promise.all([apply('cl-x', codeY), apply('cl-y', codeX)]);
      expect([rx.status, ry.status].sort()).toEqual([200, 409]);
    },
  );

  it('409 once the first fee was charged (the ledger is the source of truth)', async () => {
    const code = await codeOf('ff-parent');
    await chargeFee(app, 'ff-child', 250_000n);
    expect((await status('ff-child')).canApply).toBe(false);
    const r = await apply('ff-child', code);
    expect(r.status).toBe(409);
    expect((r.body as { message: string }).message).toMatch(/first trading fee/);
    // Also when the fee never reached the rewards listener.
    await chargeFee(app, 'ff-quiet', 250_000n, { listen: false });
    expect((await apply('ff-quiet', code)).status).toBe(409);
  });
});
