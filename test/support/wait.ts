/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls until `predicate` holds; fails with `message` after `timeoutMs` (generous:
 * only a bug hits it). For effects that land after the call that caused them.
 */
export async function waitFor(predicate: () => boolean, message: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${message}`);
    await sleep(5);
  }
}

/**
 * Polls `probe` until it answers a value (not `undefined`) and returns it; fails
 * with `message` after `timeoutMs`.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  message: string,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${message}`);
    await sleep(20);
  }
}
