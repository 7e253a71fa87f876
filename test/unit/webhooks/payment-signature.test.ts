import { AppError } from '../../../src/errors/app-error';
import {
  paymentSignature,
  signPaymentPayload,
  verifyPaymentSignature,
} from '../../../src/modules/webhooks/payment-signature';

const SECRET = 'whsec_unit';
const BODY = '{"id":"evt_1","type":"x","data":{}}';
const NOW = 1_800_000_000;

function problem(header: string | undefined, body = BODY): string | null {
  try {
    verifyPaymentSignature(header, body, SECRET, NOW);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).message;
  }
}

describe('verifyPaymentSignature', () => {
  it('accepts a valid signature, and within the 300 s tolerance on both sides', () => {
    expect(problem(signPaymentPayload(SECRET, BODY, NOW))).toBeNull();
    expect(problem(signPaymentPayload(SECRET, BODY, NOW - 300))).toBeNull();
    expect(problem(signPaymentPayload(SECRET, BODY, NOW + 300))).toBeNull();
  });

  it('accepts any matching v1 among several, in any order, with spaces and unknown schemes', () => {
    const good = paymentSignature(SECRET, NOW, BODY);
    const bad = paymentSignature('other', NOW, BODY);
    expect(problem(`t=${NOW}, v1=${bad}, v0=abc, v1=${good}`)).toBeNull();
    expect(problem(`v1=${good},t=${NOW}`)).toBeNull();
  });

  it('refuses stale, tampered, wrong-secret, missing and malformed signatures', () => {
    expect(problem(signPaymentPayload(SECRET, BODY, NOW - 301))).toMatch(/tolerance/);
    expect(problem(signPaymentPayload(SECRET, BODY, NOW + 301))).toMatch(/tolerance/);
    expect(problem(signPaymentPayload(SECRET, BODY, NOW), BODY.replace('x', 'y'))).toMatch(/does not match/);
    expect(problem(signPaymentPayload('other', BODY, NOW))).toMatch(/does not match/);
    expect(problem(undefined)).toBe('Payment-Signature: is required');
    expect(problem(`t=${NOW}`)).toMatch(/must be/);
    expect(problem(`t=${NOW},v1=zz`)).toMatch(/must be/);
    expect(problem(`t=abc,v1=${paymentSignature(SECRET, NOW, BODY)}`)).toMatch(/must be/);
    // The timestamp is part of what is signed: moving it breaks the signature.
    expect(problem(`t=${NOW + 1},v1=${paymentSignature(SECRET, NOW, BODY)}`)).toMatch(/does not match/);
  });
});
