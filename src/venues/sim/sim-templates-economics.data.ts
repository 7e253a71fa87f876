import {
  addDays,
  endOfMonth,
  isoDay,
  longDate,
  monthDay,
  monthName,
  monthShort,
  monthYear,
  nthWeekday,
  shortDate,
  shortDateYear,
  tickerDate,
  tickerMonth,
  utc,
} from './sim-dates';
import type { EventDraft, EventTemplate, Wording } from './sim-catalog.types';
import { candidatePriors, fmtNum, ladderPriors, slugify, tickerNum } from './sim-catalog.types';
import type { Prng } from './prng';
import { type Leg, withPriors } from './sim-template-kit';

/** FOMC decision days: [month, nth Wednesday (-1 = last)], close to the Fed's usual calendar. */
const FOMC_SLOTS: [number, number][] = [
  [0, -1],
  [2, 3],
  [3, -1],
  [5, 3],
  [6, -1],
  [8, 3],
  [9, -1],
  [11, 2],
];

function fomcDates(anchor: Date): Date[] {
  const y = anchor.getUTCFullYear();
  return [y - 1, y, y + 1].flatMap((year) => FOMC_SLOTS.map(([m, n]) => nthWeekday(year, m, 3, n, 19)));
}

const FED_MOVES = [
  {
    key: 'cut25',
    t: 'C25',
    a: 'Fed decreases interest rates by 25 bps',
    b: 'Fed cuts rates by 25bps',
    rule: 'lowers the upper bound by exactly 25 basis points',
  },
  {
    key: 'hold',
    t: 'H0',
    a: 'No change in Fed interest rates',
    b: 'Fed holds rates steady',
    rule: 'leaves the upper bound unchanged',
  },
  {
    key: 'cut50',
    t: 'C26',
    a: 'Fed decreases interest rates by 50+ bps',
    b: 'Fed cuts by more than 25bps',
    rule: 'lowers the upper bound by more than 25 basis points',
  },
  {
    key: 'hike',
    t: 'H25',
    a: 'Fed increases interest rates by 25+ bps',
    b: 'Fed hikes rates',
    rule: 'raises the upper bound by 25 basis points or more',
  },
];

/** Rate decisions at the last FOMC meeting (already decided) and the next three. */
const fedDecision: EventTemplate = {
  id: 'fed-decision',
  category: 'economics',
  build({ anchor, rng }) {
    const all = fomcDates(anchor);
    const next = all.findIndex((d) => d.getTime() > anchor.getTime());
    return all.slice(next - 1, next + 3).map((d): EventDraft => {
      const legs: Leg[] = FED_MOVES.map((mv) => ({
        key: mv.key,
        label: mv.b,
        a: {
          title: `${mv.a} after ${monthYear(d)} meeting?`,
          description:
            `This market will resolve to "Yes" if the Federal Open Market Committee ${mv.rule} of the target federal funds range at its meeting ` +
            `concluding ${longDate(d)}, versus the level prior to the meeting. Otherwise, "No".`,
        },
        b: {
          title: `${mv.b} in ${monthShort(d)}?`,
          description: `If the Federal Reserve ${mv.rule} of the federal funds target range at its ${monthYear(d)} meeting, then the market resolves to Yes.`,
        },
        bTicker: mv.t,
      }));
      const order = rng.chance(0.55) ? [0, 1, 2, 3] : [1, 0, 2, 3];
      const ranked = candidatePriors(4, rng, 0.02);
      const priors = legs.map((_, i) => ranked[order.indexOf(i)] ?? 0.05);
      const title = `Fed interest rate decision in ${monthYear(d)}`;
      return {
        key: `fed-decision:${isoDay(d)}`,
        category: 'economics',
        title,
        slug: slugify(title),
        closeTime: d,
        listedDays: rng.int(60, 150),
        a: {
          title: `Fed decision in ${monthName(d)}?`,
          description:
            `The Fed interest rate is defined here by the upper bound of the target federal funds range, set by the FOMC. This event resolves on the ` +
            `change announced at the meeting concluding ${longDate(d)}. If no statement is released by ${longDate(addDays(d, 7))}, the "No change" market resolves "Yes".`,
        },
        b: {
          title: `Fed rate decision in ${monthShort(d)} ${d.getUTCFullYear()}`,
          description: `What will the Federal Reserve do with the federal funds target range at its ${monthYear(d)} FOMC meeting?`,
          eventTicker: `KXFEDDECISION-${tickerMonth(d)}`,
        },
        markets: withPriors(legs, priors),
        exclusive: true,
        heat: 2,
      };
    });
  },
};

interface Release {
  id: string;
  series: string;
  core: string;
  thresholds: number[];
  releaseDay(dataMonth: Date): Date;
  aLeg(m: Date, th: number): Wording;
  bLeg(m: Date, th: number): Wording;
  aEvent(m: Date, release: Date): Wording;
  bEvent(m: Date): Wording;
  similar?: { series: string; title: string; leg(m: Date, th: number): Wording };
}

function dataRelease(rel: Release, anchor: Date, rng: Prng, monthsBack: number[]): EventDraft[] {
  return monthsBack.map((k): EventDraft => {
    const m = utc(anchor.getUTCFullYear(), anchor.getUTCMonth() - k, 1);
    const release = rel.releaseDay(m);
    const n = rng.int(2, 4);
    const start = rng.int(0, rel.thresholds.length - n);
    const ths = rel.thresholds.slice(start, start + n);
    const legs: Leg[] = ths.map((th) => ({
      key: `t${tickerNum(th)}`,
      label: `${fmtNum(th)}%`,
      a: rel.aLeg(m, th),
      b: rel.bLeg(m, th),
      bTicker: `T${tickerNum(th)}`,
    }));
    const title = `${rel.core} for ${monthYear(m)}`;
    const draft: EventDraft = {
      key: `${rel.id}:${isoDay(m)}`,
      category: 'economics',
      title,
      slug: slugify(title),
      closeTime: release,
      listedDays: rng.int(30, 75),
      a: rel.aEvent(m, release),
      b: { ...rel.bEvent(m), eventTicker: `${rel.series}-${tickerMonth(m)}` },
      markets: withPriors(legs, ladderPriors(legs.length, rng)),
      exclusive: false,
      prefer: 'venue_b',
      heat: 1.2,
    };
    if (rel.similar) {
      const sim = rel.similar;
      draft.similar = {
        b: {
          title: `${sim.title} in ${monthShort(m)} ${m.getUTCFullYear()}`,
          description: `Strikes on ${sim.title} for ${monthYear(m)}, as first published by the BLS.`,
          eventTicker: `${sim.series}-${tickerMonth(m)}`,
        },
        closeTime: release,
        markets: Object.fromEntries(ths.map((th) => [`t${tickerNum(th)}`, sim.leg(m, th)])),
      };
    }
    return draft;
  });
}

const CPI: Release = {
  id: 'cpi-yoy',
  series: 'KXCPIYOY',
  core: 'US CPI inflation (year over year)',
  thresholds: [2.4, 2.6, 2.8, 3.0, 3.2],
  releaseDay: (m) => nthWeekday(m.getUTCFullYear(), m.getUTCMonth() + 1, 3, 2, 13),
  aLeg: (m, th) => ({
    title: `Will annual inflation be above ${fmtNum(th)}% in ${monthName(m)}?`,
    description:
      `This market will resolve to "Yes" if the 12-month percent change in the Consumer Price Index for All Urban Consumers (CPI-U, not seasonally ` +
      `adjusted) for ${monthYear(m)}, as first released by the Bureau of Labor Statistics, is greater than ${fmtNum(th)}%. Otherwise, "No".`,
  }),
  bLeg: (m, th) => ({
    title: `CPI inflation above ${fmtNum(th)}% in ${monthShort(m)}?`,
    description: `If the year-over-year change in CPI-U for ${monthYear(m)} is above ${fmtNum(th)}% as first reported by the BLS, then the market resolves to Yes.`,
  }),
  aEvent: (m, r) => ({
    title: `US annual inflation in ${monthName(m)}?`,
    description: `Markets on the headline CPI-U 12-month change for ${monthYear(m)}, scheduled for release by the BLS on ${longDate(r)}.`,
  }),
  bEvent: (m) => ({
    title: `CPI year-over-year in ${monthShort(m)} ${m.getUTCFullYear()}`,
    description: `How hot was headline inflation in ${monthYear(m)}?`,
  }),
  similar: {
    series: 'KXCPICOREYOY',
    title: 'Core CPI year-over-year',
    leg: (m, th) => ({
      title: `Core CPI above ${fmtNum(th)}% in ${monthShort(m)}?`,
      description: `If the year-over-year change in core CPI (all items less food and energy) for ${monthYear(m)} is above ${fmtNum(th)}%, then the market resolves to Yes.`,
    }),
  },
};

const UNEMPLOYMENT: Release = {
  id: 'unemployment',
  series: 'KXU3',
  core: 'US unemployment rate',
  thresholds: [4.0, 4.2, 4.4, 4.6, 4.8],
  releaseDay: (m) => nthWeekday(m.getUTCFullYear(), m.getUTCMonth() + 1, 5, 1, 13),
  aLeg: (m, th) => ({
    title: `Will the U.S. unemployment rate for ${monthYear(m)} be above ${fmtNum(th)}%?`,
    description: `This market will resolve to "Yes" if the seasonally adjusted U-3 unemployment rate for ${monthYear(m)}, as first published in the BLS Employment Situation report, is above ${fmtNum(th)}%. Otherwise, "No".`,
  }),
  bLeg: (m, th) => ({
    title: `Unemployment above ${fmtNum(th)}% in ${monthShort(m)}?`,
    description: `If the BLS reports a ${monthYear(m)} unemployment rate above ${fmtNum(th)}% in its first release, then the market resolves to Yes.`,
  }),
  aEvent: (m, r) => ({
    title: `US unemployment rate for ${monthName(m)}?`,
    description: `Markets on the headline unemployment rate in the jobs report for ${monthYear(m)}, due ${longDate(r)}.`,
  }),
  bEvent: (m) => ({
    title: `Unemployment rate in ${monthShort(m)} ${m.getUTCFullYear()}`,
    description: `What will the BLS report as the ${monthYear(m)} U-3 unemployment rate?`,
  }),
};

const releases: EventTemplate = {
  id: 'data-release',
  category: 'economics',
  build({ anchor, rng }) {
    return [...dataRelease(CPI, anchor, rng, [2, 1, 0]), ...dataRelease(UNEMPLOYMENT, anchor, rng, [1, 0])];
  },
};

/** S&P 500 closing levels on the next quarter ends. */
const spx: EventTemplate = {
  id: 'spx-close',
  category: 'economics',
  build({ anchor, rng }) {
    const ths = [6500, 7000, 7500, 8000, 8500];
    const m0 = anchor.getUTCMonth();
    const offsets = [0, 1, 2, 3, 4, 5].filter((k) => (m0 + k) % 3 === 2).slice(0, 2);
    return offsets.map((k): EventDraft => {
      const d = endOfMonth(anchor, k, 21, 0);
      const start = rng.int(0, 2);
      const legs: Leg[] = ths.slice(start, start + 3).map((th) => ({
        key: `t${th}`,
        label: fmtNum(th),
        a: {
          title: `Will the S&P 500 close above ${fmtNum(th)} on ${monthDay(d)}?`,
          description: `This market will resolve to "Yes" if the official closing value of the S&P 500 index on ${longDate(d)} (or the last trading day before it) is above ${fmtNum(th)}. Otherwise, "No".`,
        },
        b: {
          title: `S&P 500 above ${th} on ${shortDate(d)}?`,
          description: `If the S&P 500 closes above ${th}.00 on ${shortDateYear(d)}, then the market resolves to Yes.`,
        },
        bTicker: `T${th}`,
      }));
      const title = `S&P 500 closing level on ${longDate(d)}`;
      return {
        key: `spx-close:${isoDay(d)}`,
        category: 'economics',
        title,
        slug: slugify(title),
        closeTime: d,
        listedDays: rng.int(40, 90),
        a: {
          title: `Where will the S&P 500 close on ${monthDay(d)}?`,
          description: `Markets on the S&P 500's official close on ${longDate(d)}.`,
        },
        b: {
          title: `S&P 500 at the end of ${monthYear(d)}`,
          description: `Where will the S&P 500 close on ${shortDateYear(d)}?`,
          eventTicker: `KXINX-${tickerDate(d)}`,
        },
        markets: withPriors(legs, ladderPriors(3, rng)),
        exclusive: false,
        heat: 1.4,
      };
    });
  },
};

/** Economics templates (more in the macro file). */
export const ECONOMICS_TEMPLATES: EventTemplate[] = [fedDecision, releases, spx];
