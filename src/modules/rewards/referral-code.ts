import { randomInt } from 'node:crypto';
import { AppError } from '../../errors/app-error';
import { REFERRAL_ALPHABET, REWARDS_LIMITS } from './rewards.limits';

const { length } = REWARDS_LIMITS.code;
const CODE = new RegExp(`^[${REFERRAL_ALPHABET}]{${length}}$`);

/** A fresh random code: easy to read aloud and type (no look-alike characters). */
export function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)];
  return code;
}

/**
 * A code as typed ("k7qx-m3pd") in its stored form ("K7QXM3PD"): case, dashes
 * and spaces do not matter. A 400 naming `code` when it cannot be a code.
 */
export function normalizeReferralCode(input: string): string {
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  if (!CODE.test(code)) {
    throw AppError.badRequest(
      'code',
      `must be ${length} letters and digits of a referral code (no 0, 1, I, L, O or U)`,
    );
  }
  return code;
}
