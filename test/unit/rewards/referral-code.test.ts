import { newReferralCode, normalizeReferralCode } from '../../../src/modules/rewards/referral-code';
import { REFERRAL_ALPHABET } from '../../../src/modules/rewards/rewards.limits';

describe('referral codes', () => {
  it('are eight characters of an alphabet without look-alikes', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = newReferralCode();
      expect(code).toMatch(/^[A-Z0-9]{8}$/);
      for (const ch of code) expect(REFERRAL_ALPHABET).toContain(ch);
    }
    for (const ch of '01ILOU') expect(REFERRAL_ALPHABET).not.toContain(ch);
  });

  it('accept any case, dashes and spaces', () => {
    expect(normalizeReferralCode('k7qx-m3pd')).toBe('K7QXM3PD');
    expect(normalizeReferralCode(' K7QX M3PD ')).toBe('K7QXM3PD');
  });

  it.each(['', 'K7QXM3P', 'K7QXM3PDX', 'K7QXM3P0', 'K7QXM3PI', 'K7QX_M3PD'])(
    'refuse %j with a 400 naming code',
    (input) => {
      expect(() => normalizeReferralCode(input)).toThrow(/^code: /);
    },
  );
});
