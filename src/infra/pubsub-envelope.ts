/**
 * Wire format of a pub/sub message. Both backends use it (the in-process one
 * too) so payloads get the same JSON round-trip and lag measurement everywhere.
 */

/** What travels on the channel. */
export interface PubSubEnvelope<T> {
  /** Publisher's clock (unix ms) at publish time, for the delivery-lag metric. */
  publishedAt: number;
  payload: T;
}

/** Serialises a payload with its publish time. */
export function encodeEnvelope<T>(payload: T, publishedAt: number): string {
  const envelope: PubSubEnvelope<T> = { publishedAt, payload };
  return JSON.stringify(envelope);
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
  return { publishedAt: parsed.publishedAt, payload: 'payload' in parsed ? parsed.payload : undefined };
}

/**
 * Delivery lag, clamped at 0: across processes the publisher's clock may be
 * ahead of ours, and a negative lag would only corrupt a histogram.
 */
export function deliveryLag(publishedAt: number, now: number): number {
  return Math.max(0, now - publishedAt);
}
