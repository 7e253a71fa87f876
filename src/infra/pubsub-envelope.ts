/**
 * Wire format of a pub/sub message. Both backends use it (the in-process one
 * too) so payloads get the same JSON round-trip and lag measurement everywhere.
 */

/** What travels on the channel: one payload, or a batch published together (`publishMany`). */
export interface PubSubEnvelope<T> {
  /** Publisher's clock (unix ms) at publish time, for the delivery-lag metric. */
  publishedAt: number;
  /** The message's payloads in publish order: one for `publish`, the batch for `publishMany`. */
  payloads: T[];
}

/** Serialises a payload with its publish time (`{publishedAt, payload}`). */
export function encodeEnvelope<T>(payload: T, publishedAt: number): string {
  return JSON.stringify({ publishedAt, payload });
}

/**
 * Serialises a batch as ONE message (`{publishedAt, payloads}`): one PUBLISH, which Redis delivers
 * whole or not at all and in order, instead of a MULTI of one PUBLISH per payload (an account's
 * order, fill, position and balance were six commands a trade).
 */
export function encodeBatchEnvelope<T>(payloads: readonly T[], publishedAt: number): string {
  return JSON.stringify({ publishedAt, payloads });
}

/** Parses a raw message; throws on anything that is not an envelope (e.g. a foreign publisher on the channel). */
export function decodeEnvelope(raw: string): PubSubEnvelope<unknown> {
  const parsed: unknown = JSON.parse(raw);
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    !('publishedAt' in parsed) ||
    typeof parsed.publishedAt !== 'number'
  ) {
    throw new TypeError('pub/sub message is not an envelope');
  }
  if ('payloads' in parsed) {
    if (!Array.isArray(parsed.payloads)) throw new TypeError('pub/sub batch has no list of payloads');
    return { publishedAt: parsed.publishedAt, payloads: parsed.payloads as unknown[] };
  }
  return { publishedAt: parsed.publishedAt, payloads: ['payload' in parsed ? parsed.payload : undefined] };
}

/**
 * Delivery lag, clamped at 0: across processes the publisher's clock may be
 * ahead of ours, and a negative lag would only corrupt a histogram.
 */
export function deliveryLag(publishedAt: number, now: number): number {
  return Math.max(0, now - publishedAt);
}
