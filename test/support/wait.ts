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

/**
 * Runs `act` until `done` holds, giving each run up to `everyMs` to take effect; fails with
 * `message` after `timeoutMs`. For a live-only stream whose subscription is up at a moment the
 * test cannot see: send until something arrives.
 */
export async function repeatUntil(
  act: () => Promise<unknown>,
  done: () => boolean,
  message: string,
  { timeoutMs = 20_000, everyMs = 250 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${message}`);
    await act();
    const settle = Date.now() + everyMs;
    while (!done() && Date.now() < settle) await sleep(5);
  }
}
