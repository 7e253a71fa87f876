/** A wall clock the test moves forward: see {@link shiftedWallClock}. */
export interface ShiftedWallClock {
  /** Moves `Date.now()` forward by `ms`. */
  advance(ms: number): void;
  /** Puts the real `Date.now` back (references taken meanwhile keep answering real time plus the offset). */
  restore(): void;
}

/**
 * For code that reads the wall clock itself rather than taking a `now` (a library's breaker,
 * a `now = Date.now` default captured at construction): from the call on, `Date.now()` answers the
 * real time plus an offset that only {@link ShiftedWallClock.advance} changes, so a window that
 * lapses "after N ms" lapses when the test says, however slow the machine. `new Date()` and the
 * timers are untouched. Install it before building what captures `Date.now`.
 */
export function shiftedWallClock(): ShiftedWallClock {
  const real = Date.now.bind(Date);
  let offset = 0;
  Date.now = () => real() + offset;
  return {
    advance(ms) {
      offset += ms;
    },
    restore() {
      Date.now = real;
    },
  };
}
