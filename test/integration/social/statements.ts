import type { TestApp } from '../../support/app';

/**
 * SQL statements `run` executes, as the fewest over `tries` runs: the app's
 * background work (withdrawal dispatch, usage flushes) can only add to a
 * count, never take from it, so the minimum is the request's own.
 */
export async function statementsOf(app: TestApp, run: () => Promise<unknown>, tries = 3): Promise<number> {
  let fewest = Infinity;
  for (let i = 0; i < tries; i += 1) {
    const before = app.services.db.queryCount();
    await run();
    fewest = Math.min(fewest, app.services.db.queryCount() - before);
  }
  return fewest;
}
