import {
  addDays,
  endOfMonth,
  isoDay,
  longDate,
  monthName,
  monthShort,
  monthYear,
  shortDateYear,
  tickerMonth,
  tickerYear,
  utc,
} from './sim-dates';
import type { EventDraft, EventTemplate, MarketDraft, Wording } from './sim-catalog.types';
import { ladderPriors, slugify, tickerNum } from './sim-catalog.types';
import type { Prng } from './prng';
import { binaryEvent, type BinarySpec, same } from './sim-template-kit';

interface LadderSpec {
  key: string;
  title: string;
  close: Date;
  listedDays: number;
  ths: number[];
  /** True when a higher threshold is easier to satisfy ("below X" questions). */
  below?: boolean;
  unit(th: number): string;
  a: Wording;
  b: Wording & { eventTicker: string };
  aLeg(th: number): Wording;
  bLeg(th: number): Wording;
  similar?: { b: Wording & { eventTicker: string }; leg(th: number): Wording };
  prefer?: 'venue_a' | 'venue_b';
}

function ladder(spec: LadderSpec, rng: Prng): EventDraft {
  const priors = ladderPriors(spec.ths.length, rng);
  if (spec.below) priors.reverse();
  const markets: MarketDraft[] = spec.ths.map((th, i) => ({
    key: `t${tickerNum(th)}`,
    label: spec.unit(th),
    a: spec.aLeg(th),
    b: spec.bLeg(th),
    bTicker: `T${tickerNum(th)}`,
    prior: priors[i] ?? 0.3,
  }));
  const draft: EventDraft = {
    key: spec.key,
    category: 'science',
    title: spec.title,
    slug: slugify(spec.title),
    closeTime: spec.close,
    listedDays: spec.listedDays,
    a: spec.a,
    b: spec.b,
    markets,
    exclusive: false,
    heat: 0.8,
  };
  if (spec.prefer) draft.prefer = spec.prefer;
  if (spec.similar) {
    const sim = spec.similar;
    draft.similar = {
      b: sim.b,
      closeTime: spec.close,
      markets: Object.fromEntries(spec.ths.map((th) => [`t${tickerNum(th)}`, sim.leg(th)])),
    };
  }
  return draft;
}

/** Climate ladders: named storms, Arctic sea ice, monthly global temperature, city snowfall. */
const climate: EventTemplate = {
  id: 'climate',
  category: 'science',
  build({ anchor, rng }) {
    const y0 = anchor.getUTCFullYear();
    const season = anchor.getUTCMonth() >= 9 ? y0 + 1 : y0;
    const storms = ladder(
      {
        key: `named-storms:${season}`,
        title: `Number of named storms in the ${season} Atlantic hurricane season`,
        close: utc(season, 11, 1, 17),
        listedDays: rng.int(150, 260),
        ths: [12, 15, 18, 21],
        unit: (n) => `${n}+`,
        a: {
          title: `How many named storms in the ${season} Atlantic hurricane season?`,
          description: `Counts Atlantic tropical or subtropical storms named by the National Hurricane Center between January 1 and November 30, ${season}.`,
        },
        b: {
          title: `Atlantic named storms in ${season}`,
          description: `How active will the ${season} Atlantic hurricane season be?`,
          eventTicker: `KXHURCTOT-${tickerYear(season)}`,
        },
        aLeg: (n) => ({
          title: `Will there be more than ${n} named storms in the ${season} Atlantic hurricane season?`,
          description: `This market will resolve to "Yes" if more than ${n} Atlantic storms are named by the NHC in ${season} (January 1 to November 30). Otherwise, "No".`,
        }),
        bLeg: (n) => ({
          title: `More than ${n} named Atlantic storms in ${season}?`,
          description: `If the National Hurricane Center names more than ${n} Atlantic storms in the ${season} season, then the market resolves to Yes.`,
        }),
        prefer: 'venue_b',
      },
      rng,
    );
    const iceYear = anchor.getUTCMonth() >= 8 ? y0 + 1 : y0;
    const ice = ladder(
      {
        key: `sea-ice:${iceYear}`,
        title: `Arctic sea ice extent in September ${iceYear}`,
        close: utc(iceYear, 9, 6, 17),
        listedDays: rng.int(120, 240),
        ths: [4.0, 4.5, 5.0],
        below: true,
        unit: (t) => `< ${t}M km²`,
        a: {
          title: `Arctic sea ice extent in September ${iceYear}?`,
          description: `Markets on the NSIDC Sea Ice Index monthly average Arctic extent for September ${iceYear}.`,
        },
        b: {
          title: `September ${iceYear} Arctic sea ice`,
          description: `How low will Arctic sea ice go this September?`,
          eventTicker: `KXARCTICICE-${tickerYear(iceYear)}`,
        },
        aLeg: (t) => ({
          title: `Will Arctic sea ice extent in September ${iceYear} be below ${t.toFixed(1)} million km²?`,
          description: `This market will resolve to "Yes" if the NSIDC Sea Ice Index reports a September ${iceYear} monthly average Arctic sea ice extent below ${t.toFixed(1)} million square kilometers. Otherwise, "No".`,
        }),
        bLeg: (t) => ({
          title: `Sept Arctic sea ice below ${t.toFixed(1)}M km²?`,
          description: `If the NSIDC September ${iceYear} monthly average Arctic sea ice extent is below ${t.toFixed(1)} million km², then the market resolves to Yes.`,
        }),
        similar: {
          b: {
            title: `Arctic sea ice minimum ${iceYear}`,
            description: `Resolves on the lowest daily extent of the year, not the September average.`,
            eventTicker: `KXARCTICMIN-${tickerYear(iceYear)}`,
          },
          leg: (t) => ({
            title: `Arctic daily minimum below ${t.toFixed(1)}M km² in ${iceYear}?`,
            description: `If the NSIDC daily Arctic sea ice extent (5-day average) falls below ${t.toFixed(1)} million km² at any point in ${iceYear}, then the market resolves to Yes.`,
          }),
        },
      },
      rng,
    );
    const m = utc(y0, anchor.getUTCMonth() + 1, 1);
    const temp = ladder(
      {
        key: `global-temp:${isoDay(m)}`,
        title: `Global temperature anomaly for ${monthYear(m)}`,
        close: utc(m.getUTCFullYear(), m.getUTCMonth() + 1, 8, 12),
        listedDays: rng.int(30, 60),
        ths: [1.2, 1.35, 1.5],
        unit: (t) => `${t}°C`,
        a: {
          title: `Global temperature increase in ${monthName(m)}?`,
          description: `Markets on the Copernicus ERA5 global surface air temperature anomaly versus 1850-1900 for ${monthYear(m)}.`,
        },
        b: {
          title: `Global temperature anomaly in ${monthShort(m)} ${m.getUTCFullYear()}`,
          description: `How far above pre-industrial levels will ${monthYear(m)} be?`,
          eventTicker: `KXGTEMP-${tickerMonth(m)}`,
        },
        aLeg: (t) => ({
          title: `Will ${monthYear(m)} be more than ${t}°C above pre-industrial levels?`,
          description: `This market will resolve to "Yes" if the Copernicus Climate Change Service reports a ${monthYear(m)} global surface air temperature anomaly above ${t}°C relative to 1850-1900. Otherwise, "No".`,
        }),
        bLeg: (t) => ({
          title: `${monthShort(m)} global temperature above +${t}°C?`,
          description: `If Copernicus ERA5 shows ${monthYear(m)} more than ${t}°C above the 1850-1900 average, then the market resolves to Yes.`,
        }),
        prefer: 'venue_b',
      },
      rng,
    );
    let snowMonth = utc(y0, anchor.getUTCMonth() + 1, 1);
    while (![11, 0, 1, 2].includes(snowMonth.getUTCMonth()))
      snowMonth = utc(snowMonth.getUTCFullYear(), snowMonth.getUTCMonth() + 1, 1);
    const city = rng.pick([
      { name: 'New York City', station: 'Central Park', code: 'NYC' },
      { name: 'Chicago', station: "O'Hare International Airport", code: 'CHI' },
      { name: 'Boston', station: 'Logan International Airport', code: 'BOS' },
      { name: 'Denver', station: 'Denver International Airport', code: 'DEN' },
    ]);
    const sm = snowMonth;
    const snow = ladder(
      {
        key: `snow:${city.code}:${isoDay(sm)}`,
        title: `${city.name} snowfall in ${monthYear(sm)}`,
        close: endOfMonth(sm, 0, 23, 59),
        listedDays: rng.int(30, 60),
        ths: [2, 6, 10],
        unit: (n) => `${n}+ in`,
        a: {
          title: `How much snow will ${city.name} get in ${monthName(sm)}?`,
          description: `Markets on total snowfall measured at ${city.station} in ${monthYear(sm)}, per the NWS climate report.`,
        },
        b: {
          title: `${city.name} snow in ${monthShort(sm)} ${sm.getUTCFullYear()}`,
          description: `Total monthly snowfall at ${city.station}.`,
          eventTicker: `KXSNOW${city.code}M-${tickerMonth(sm)}`,
        },
        aLeg: (n) => ({
          title: `Will ${city.name} get more than ${n} inches of snow in ${monthYear(sm)}?`,
          description: `This market will resolve to "Yes" if the NWS reports more than ${n} inches of total snowfall at ${city.station} for ${monthYear(sm)}. Otherwise, "No".`,
        }),
        bLeg: (n) => ({
          title: `${city.name} snowfall above ${n} inches in ${monthShort(sm)}?`,
          description: `If monthly snowfall at ${city.station} for ${monthYear(sm)} exceeds ${n} inches per the NWS climatological report, then the market resolves to Yes.`,
        }),
        prefer: 'venue_b',
      },
      rng,
    );
    return [storms, ice, temp, snow];
  },
};

const SPACE: BinarySpec[] = [
  {
    id: 'artemis-3',
    ticker: 'KXARTEMIS3',
    prior: 0.06,
    title: (d) => `Artemis III launches by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will NASA's Artemis III mission launch by ${longDate(d)}?`,
        `This market will resolve to "Yes" if NASA's Artemis III crewed mission lifts off by ${longDate(d)}, 11:59 PM ET. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `Artemis III launch before ${shortDateYear(d)}?`,
        `If the Artemis III mission launches before ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
  },
  {
    id: 'starship-refuel',
    ticker: 'KXSTARSHIPREFUEL',
    prior: 0.4,
    title: (d) => `Starship orbital propellant transfer by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will SpaceX complete a Starship ship-to-ship propellant transfer in orbit by ${longDate(d)}?`,
        `This market will resolve to "Yes" if SpaceX or NASA confirms a successful transfer of propellant between two Starship vehicles in orbit by ${longDate(d)}. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `Starship in-orbit refueling demo by ${shortDateYear(d)}?`,
        `If SpaceX successfully transfers propellant between two Starships in orbit before ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
    similar: (d) => {
      const later = endOfMonth(d, 6);
      return {
        b: same(
          `Starship in-orbit refueling demo by ${shortDateYear(later)}?`,
          `If SpaceX successfully transfers propellant between two Starships in orbit before ${shortDateYear(later)}, then the market resolves to Yes.`,
        ),
        closeTime: later,
        ticker: 'KXSTARSHIPREFUELH',
      };
    },
  },
  {
    id: 'starship-catch',
    ticker: 'KXSHIPCATCH',
    prior: 0.35,
    title: (d) => `SpaceX catches a Starship upper stage by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will SpaceX catch a Starship upper stage with the launch tower by ${longDate(d)}?`,
        `This market will resolve to "Yes" if SpaceX catches a returning Starship upper stage ("ship") with the launch tower arms by ${longDate(d)}. Booster catches do not count. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `Starship ship caught by the tower before ${shortDateYear(d)}?`,
        `If SpaceX catches a Starship upper stage with its launch tower before ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
  },
  {
    id: 'quake-m8',
    ticker: 'KXQUAKE8',
    prior: 0.45,
    title: (d) => `Magnitude 8.0+ earthquake by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will a magnitude 8.0 or greater earthquake occur anywhere by ${longDate(d)}?`,
        `This market will resolve to "Yes" if the USGS reports an earthquake of magnitude 8.0 or higher anywhere in the world between market creation and ${longDate(d)}. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `Magnitude 8+ earthquake before ${shortDateYear(d)}?`,
        `If the USGS records a magnitude 8.0 or greater earthquake anywhere before ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
    prefer: 'venue_b',
  },
];

/** Record heat and space milestones. */
const milestones: EventTemplate = {
  id: 'science-milestone',
  category: 'science',
  build({ anchor, rng }) {
    const y = anchor.getUTCMonth() >= 11 ? anchor.getUTCFullYear() + 1 : anchor.getUTCFullYear();
    const hottest: BinarySpec = {
      id: `hottest-${y}`,
      ticker: 'KXHOTYEAR',
      prior: 0.5,
      title: () => `${y} hottest year on record`,
      a: () =>
        same(
          `Will ${y} be the hottest year on record?`,
          `This market will resolve to "Yes" if NASA's GISTEMP analysis, in its annual release for ${y}, ranks ${y} as the warmest year in its record. Otherwise, "No".`,
        ),
      b: () =>
        same(
          `Hottest year on record in ${y}?`,
          `If NASA GISTEMP ranks ${y} as the warmest year on record, then the market resolves to Yes.`,
        ),
      similar: () => ({
        b: same(
          `${y} warmest year per Copernicus?`,
          `If the Copernicus Climate Change Service (ERA5) ranks ${y} as the warmest calendar year on record, then the market resolves to Yes.`,
        ),
        closeTime: utc(y + 1, 0, 10, 12),
        ticker: 'KXHOTYEARC3S',
      }),
    };
    const space = rng
      .sample(SPACE, 3)
      .map((s) =>
        binaryEvent('science-milestone', 'science', s, endOfMonth(anchor, rng.pick([2, 4, 7, 10])), rng.int(90, 260)),
      );
    return [
      binaryEvent('science-milestone', 'science', hottest, addDays(utc(y + 1, 0, 15), 0), rng.int(200, 300)),
      ...space,
    ];
  },
};

/** Science and climate templates. */
export const SCIENCE_TEMPLATES: EventTemplate[] = [climate, milestones];
