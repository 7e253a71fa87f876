import { createSimulatedWorld, type SimulatedWorld, type WorldCoreEvent } from '../../src/venues';

/** The demo seed and a fixed calendar month: titles, slugs and ids stay the same whatever today is. */
export const PINNED_SEED = 42;
export const PINNED_ANCHOR = Date.UTC(2026, 10, 1);
/** Mid-month, mid-bucket: some events have closed, most trade. */
export const PINNED_NOW = Date.UTC(2026, 10, 15, 12, 7, 30);

/** A world and a settable clock shared with the services (`startTestApp(env, opts, { world, now })`). */
export interface PinnedWorld {
  world: SimulatedWorld;
  clock: { ms: number };
  now: () => number;
}

export function pinnedWorld(ms = PINNED_NOW): PinnedWorld {
  const clock = { ms };
  const now = () => clock.ms;
  return { world: createSimulatedWorld({ seed: PINNED_SEED, anchor: PINNED_ANCHOR, now }), clock, now };
}

/** A core event listed on both venues with the same question, still trading at `nowMs`, with several markets. */
export function activeMatchedEvent(world: SimulatedWorld, nowMs = PINNED_NOW): WorldCoreEvent {
  const e = world.coreEvents.find(
    (x) =>
      x.sourceType === 'matched' &&
      x.matchKind === 'exact_match' &&
      (x.closeTime?.getTime() ?? 0) > nowMs + 86_400_000 &&
      x.markets.length >= 2,
  );
  if (!e) throw new Error('the pinned world has no active matched event');
  return e;
}
