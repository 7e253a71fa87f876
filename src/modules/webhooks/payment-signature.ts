import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors/app-error';

/** How far a signature's timestamp may be from the server's clock (replay window). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const HEADER = 'Payment-Signature';

/** The hex HMAC-SHA256 of `t.payload` with the secret. */
export function paymentSignature(secret: string, t: number, payload: string): string {
  return createHmac('sha256', secret).update(`${t}.${payload}`, 'utf8').digest('hex');
}

/** A `Payment-Signature` header value for a payload (what the processor sends; tests and tools use it). */
export function signPaymentPayload(secret: string, payload: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${paymentSignature(secret, t, payload)}`;
}

/**
 * Checks `Payment-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]` against the raw body:
 * some v1 must be the HMAC-SHA256 of `t.body` (several are allowed while the
 * processor rolls its secret), compared in constant time, and `t` within
 * {@link SIGNATURE_TOLERANCE_SECONDS} of now. Anything else is a 400.
 */
export function verifyPaymentSignature(
  header: string | undefined,
  payload: string,
  secret: string,
  nowSeconds: number,
): void {
  if (!header) throw AppError.badRequest(HEADER, 'is required');
  let t: number | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    // Unknown schemes (v0, future versions) are ignored, as processors document.
    if (name === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) candidates.push(Buffer.from(value, 'hex'));
  }
  if (t === undefined || candidates.length === 0)
    throw AppError.badRequest(HEADER, 'must be t=<unix seconds>,v1=<hex HMAC-SHA256>');
  if (Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_SECONDS) {
    throw AppError.badRequest(HEADER, `timestamp is outside the ${SIGNATURE_TOLERANCE_SECONDS} s tolerance`);
  }
  const expected = Buffer.from(paymentSignature(secret, t, payload), 'hex');
  // Every candidate is compared (no early exit), each in constant time.
  let ok = false;
  for (const c of candidates) ok = timingSafeEqual(c, expected) || ok;
  if (!ok) throw AppError.badRequest(HEADER, 'does not match the body');
}
