import { randomUUID } from 'node:crypto';
import type { PubSub } from '../../src/infra';

/**
 * Resolves once every message this process published on `pubsub` before the call has reached this
 * process's listeners: a marker published on a topic of its own comes back after them, since both
 * implementations deliver to a process in publish order across topics (one subscriber connection
 * to Redis; one queue in-process). For "nothing more arrives" without waiting a fixed time: settle
 * the work, then this, then assert.
 */
export async function pubsubDelivered(pubsub: PubSub, timeoutMs = 10_000): Promise<void> {
  const topic = `test-marker:${randomUUID()}`;
  let arrived!: () => void;
  const marker = new Promise<void>((resolve) => (arrived = resolve));
  const unsubscribe = await pubsub.subscribe(topic, () => arrived());
  let timer: NodeJS.Timeout | undefined;
  try {
    await pubsub.publish(topic, { marker: true });
    await Promise.race([
      marker,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`pub/sub marker not delivered within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await unsubscribe();
  }
}

/**
 * Resolves once this process's subscription to `topic` is in place: a listener added before the
 * call (a stream's) then receives everything published after it. Subscribing resolves only once
 * Redis confirmed the channel's SUBSCRIBE (at once in-process); the subscription made here for that
 * is dropped again.
 */
export async function subscribed(pubsub: PubSub, topic: string): Promise<void> {
  const unsubscribe = await pubsub.subscribe(topic, () => undefined);
  await unsubscribe();
}
