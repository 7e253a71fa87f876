import { mix32 } from './prng';

// Module-local aliases: global lookups are very slow inside vm contexts (jest),
// and these functions run millions of times per series or listing.
const { exp, floor, imul, log, max, min, round } = Math;

/** Resolution of the price process in seconds; prices are constant within a step. */
export const PRICE_STEP_S = 15;

/**
 * Parameters of one market's price process. Matched markets on both venues
 * share `seed` (the underlying question) and differ only by a small
 * venue-specific basis, so cross-venue prices track each other.
 */
export interface PriceProcess {
  seed: number;
  basisSeed: number;
  /** Logit the walk is centred on. */
  baseLogit: number;
  /** Scales every octave; 1 = typical volatility. */
  vol: number;
  /** Constant per-venue offset in logit space. */
  basisOffset: number;
  /** Unix seconds; trading stops here (null = never). */
  closeAt: number | null;
  /** Known outcome for closed markets; the walk drifts towards it before close. */
  outcome: 'yes' | 'no' | null;
  /** After close: true pins the price at 0/1 (resolved), false leaves it near 0/1 (closed, awaiting resolution). */
  settled: boolean;
}

/**
 * Octaves of value noise, [period s, amplitude in logit]. Amplitudes grow
 * roughly with the square root of the period, which looks like a random walk
 * at every zoom level while staying bounded (no drift to 0 or 1), and any
 * instant is computed in O(octaves) without replaying history.
 */
const OCTAVES: readonly (readonly [number, number])[] = [
  [15, 0.008],
  [120, 0.018],
  [900, 0.04],
  [7_200, 0.09],
  [43_200, 0.16],
  [259_200, 0.3],
  [1_209_600, 0.5],
  [5_184_000, 0.7],
];
const BASIS_PERIOD_S = 3_600;
const BASIS_AMPLITUDE = 0.06;
const RAMP_S = 10 * 86_400;
const MIN_P = 0.005;

// One mixing round per lattice value: this is the hot path of every series.
function lattice(seed: number, octave: number, i: number): number {
  return (mix32(seed ^ (imul(i, 0x9e3779b1) + imul(octave + 1, 0x85ebca77))) / 4294967296) * 2 - 1;
}

function noise(seed: number, octave: number, t: number, period: number): number {
  const x = t / period;
  const i = floor(x);
  const f = x - i;
  const a = lattice(seed, octave, i);
  return a + (lattice(seed, octave, i + 1) - a) * f;
}

/** Logit of the process at `t` (unix seconds), before settlement. */
function logitAt(proc: PriceProcess, t: number): number {
  let x = proc.baseLogit + proc.basisOffset;
  for (let k = 0; k < OCTAVES.length; k++) {
    const oct = OCTAVES[k];
    x += proc.vol * oct[1] * noise(proc.seed, k, t, oct[0]);
  }
  x += BASIS_AMPLITUDE * noise(proc.basisSeed, 99, t, BASIS_PERIOD_S);
  if (proc.outcome !== null && proc.closeAt !== null && t > proc.closeAt - RAMP_S) {
    // Ease into the outcome over the final days so charts of decided markets look decided.
    const w = min(1, (t - (proc.closeAt - RAMP_S)) / RAMP_S);
    const target = proc.outcome === 'yes' ? 4.5 : -4.5;
    x += (target - x) * w * w;
  }
  return x;
}

/** Probability of YES at `t` (unix seconds), in (0, 1); exactly 0/1 after a settled close. */
export function priceAt(proc: PriceProcess, t: number): number {
  let tq = floor(t / PRICE_STEP_S) * PRICE_STEP_S;
  if (proc.closeAt !== null && tq >= proc.closeAt) {
    if (proc.settled && proc.outcome !== null) return proc.outcome === 'yes' ? 1 : 0;
    tq = floor((proc.closeAt - 1) / PRICE_STEP_S) * PRICE_STEP_S;
  }
  const p = 1 / (1 + exp(-logitAt(proc, tq)));
  return min(1 - MIN_P, max(MIN_P, p));
}

/** Rounds to a tick (0.01 or 0.001) without binary-float artefacts. */
export function roundToTick(p: number, tick: number): number {
  const n = round(1 / tick);
  return round(p * n) / n;
}

/** Log-odds of a probability, clamped away from 0 and 1. */
export function logit(p: number): number {
  const q = min(0.98, max(0.02, p));
  return log(q / (1 - q));
}
