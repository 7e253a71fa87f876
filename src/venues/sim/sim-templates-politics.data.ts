import {
  addDays,
  electionDay,
  endOfMonth,
  isoDay,
  longDate,
  monthDay,
  shortDate,
  shortDateYear,
  tickerDate,
  tickerYear,
} from './sim-dates';
import type { EventDraft, EventTemplate } from './sim-catalog.types';
import { ladderPriors, slugify } from './sim-catalog.types';
import { binaryEvent, type BinarySpec, type Leg, same, withPriors } from './sim-template-kit';

interface State {
  name: string;
  code: string;
  /** Election year modulo 4. */
  cycle: number;
  /** Prior that the Democratic candidate wins. */
  dem: number;
}

const STATES: State[] = [
  { name: 'Kentucky', code: 'KY', cycle: 3, dem: 0.35 },
  { name: 'Louisiana', code: 'LA', cycle: 3, dem: 0.2 },
  { name: 'Mississippi', code: 'MS', cycle: 3, dem: 0.15 },
  { name: 'Virginia', code: 'VA', cycle: 1, dem: 0.6 },
  { name: 'New Jersey', code: 'NJ', cycle: 1, dem: 0.68 },
  { name: 'Arizona', code: 'AZ', cycle: 2, dem: 0.5 },
  { name: 'Georgia', code: 'GA', cycle: 2, dem: 0.42 },
  { name: 'Michigan', code: 'MI', cycle: 2, dem: 0.52 },
  { name: 'Pennsylvania', code: 'PA', cycle: 2, dem: 0.55 },
  { name: 'Wisconsin', code: 'WI', cycle: 2, dem: 0.5 },
  { name: 'Nevada', code: 'NV', cycle: 2, dem: 0.45 },
  { name: 'North Carolina', code: 'NC', cycle: 0, dem: 0.5 },
  { name: 'Montana', code: 'MT', cycle: 0, dem: 0.2 },
  { name: 'Washington', code: 'WA', cycle: 0, dem: 0.8 },
];

function govRace(state: State, year: number, listedDays: number, heat: number): EventDraft {
  const d = addDays(electionDay(year), 1);
  const parties = [
    { key: 'dem', label: 'Democratic', b: 'Democrats', t: 'D', prior: state.dem },
    { key: 'rep', label: 'Republican', b: 'Republicans', t: 'R', prior: 0.97 - state.dem },
  ];
  const legs: Leg[] = parties.map((p) => ({
    key: p.key,
    label: p.label,
    a: {
      title: `Will the ${p.label} candidate win the ${year} ${state.name} governor race?`,
      description:
        `This market will resolve to "Yes" if the ${p.label} Party nominee wins the ${year} ${state.name} gubernatorial election held on ` +
        `${longDate(electionDay(year))}, as determined by certified results or a consensus of major media projections. Otherwise, "No".`,
    },
    b: {
      title: `${p.b} win ${state.name} governor race in ${year}?`,
      description: `If the ${p.label} nominee is the winner of the ${year} ${state.name} governor election, then the market resolves to Yes.`,
    },
    bTicker: p.t,
  }));
  const title = `${year} ${state.name} governor election`;
  return {
    key: `gov-race:${state.code}:${year}`,
    category: 'politics',
    title,
    slug: slugify(title),
    closeTime: d,
    listedDays,
    a: {
      title: `${state.name} Governor Election Winner ${year}`,
      description: `Which party will win the ${year} ${state.name} gubernatorial election on ${longDate(electionDay(year))}?`,
    },
    b: {
      title: `${state.name} governor race ${year}: which party wins?`,
      description: `Party of the winner of the ${year} ${state.name} governor election.`,
      eventTicker: `KXGOV${state.code}-${tickerYear(year)}`,
    },
    markets: withPriors(
      legs,
      parties.map((p) => p.prior),
    ),
    exclusive: true,
    heat,
  };
}

/** Governor races: one just decided, four upcoming; plus the next presidential race by party. */
const elections: EventTemplate = {
  id: 'elections',
  category: 'politics',
  build({ anchor, rng }) {
    const t = anchor.getTime();
    const nextYear = (s: State) => {
      let y = anchor.getUTCFullYear();
      while ((y - s.cycle) % 4 !== 0 || electionDay(y).getTime() < t + 35 * 86_400_000) y++;
      return y;
    };
    const upcoming = rng
      .shuffle(STATES)
      .filter((s) => nextYear(s) - anchor.getUTCFullYear() <= 2)
      .slice(0, 4)
      .map((s) => govRace(s, nextYear(s), rng.int(120, 300), 0.8 + rng.next()));
    // A race decided around the anchor (if any), so the catalog holds a settled election.
    const recentPool = STATES.filter((s) => {
      const e = electionDay(nextYear(s) - 4).getTime();
      return e > t - 400 * 86_400_000 && !upcoming.some((u) => u.key.includes(`:${s.code}:`));
    });
    const recentState = recentPool.length > 0 ? rng.pick(recentPool) : null;
    const recent = recentState ? [govRace(recentState, nextYear(recentState) - 4, 200, 0.6)] : [];
    let py = anchor.getUTCFullYear();
    while (py % 4 !== 0 || electionDay(py).getTime() < t) py++;
    const pres = govRace({ name: 'United States', code: 'US', cycle: 0, dem: 0.48 }, py, 400, 3);
    const ed = longDate(electionDay(py));
    pres.key = `presidential:${py}`;
    pres.title = `${py} US presidential election winner (party)`;
    pres.slug = slugify(pres.title);
    pres.a = {
      title: `Which party will win the ${py} presidential election?`,
      description: `Resolves to the party of the candidate who wins the US presidential election on ${ed}.`,
    };
    pres.b = {
      title: `${py} presidential election: winning party?`,
      description: `Party of the winner of the ${py} US presidential election.`,
      eventTicker: `KXPRESPARTY-${tickerYear(py)}`,
    };
    for (const m of pres.markets) {
      const label = m.key === 'dem' ? 'Democratic' : 'Republican';
      m.a = {
        title: `Will the ${label} nominee win the ${py} US presidential election?`,
        description: `This market will resolve to "Yes" if the ${label} Party's nominee wins the ${py} US presidential election held on ${ed}, per Electoral College results. Otherwise, "No".`,
      };
      m.b = {
        title: `${label === 'Democratic' ? 'Democrats' : 'Republicans'} win the presidency in ${py}?`,
        description: `If the ${label} nominee wins the ${py} presidential election, then the market resolves to Yes.`,
      };
    }
    return [...upcoming, ...recent, pres];
  },
};

const BILLS: { id: string; what: string; short: string; prior: number }[] = [
  {
    id: 'stock-ban',
    what: 'a ban on stock trading by members of Congress',
    short: 'Congressional stock trading ban',
    prior: 0.18,
  },
  { id: 'privacy', what: 'a comprehensive federal data privacy law', short: 'Federal privacy law', prior: 0.1 },
  {
    id: 'crypto-structure',
    what: 'a crypto market structure bill',
    short: 'Crypto market structure bill',
    prior: 0.35,
  },
  {
    id: 'ai-safety',
    what: 'a federal law regulating frontier AI models',
    short: 'Federal frontier AI law',
    prior: 0.08,
  },
  {
    id: 'aca-subsidies',
    what: 'an extension of the enhanced ACA premium subsidies',
    short: 'ACA subsidy extension',
    prior: 0.3,
  },
];

const billSpec = (bill: (typeof BILLS)[number]): BinarySpec => ({
  id: bill.id,
  ticker: `KXBILL${bill.id.replace(/-/g, '').slice(0, 8).toUpperCase()}`,
  prior: bill.prior,
  title: (d) => `${bill.short} signed into law by ${longDate(d)}`,
  a: (d) =>
    same(
      `Will ${bill.what} be signed into law by ${longDate(d)}?`,
      `This market will resolve to "Yes" if ${bill.what} is signed into law by the President of the United States by ${longDate(d)}, 11:59 PM ET. ` +
        `Passage by one chamber, or a veto, does not count. Otherwise, "No".`,
    ),
  b: (d) =>
    same(
      `${bill.short} signed before ${shortDateYear(d)}?`,
      `If ${bill.what} becomes law before ${shortDateYear(d)}, then the market resolves to Yes.`,
    ),
  similar: (d) => ({
    b: same(
      `${bill.short} passes the House by ${shortDateYear(d)}?`,
      `If the House of Representatives passes ${bill.what} before ${shortDateYear(d)}, then the market resolves to Yes. Senate passage and signature are not required.`,
    ),
    ticker: `KXHOUSE${bill.id.replace(/-/g, '').slice(0, 6).toUpperCase()}`,
  }),
});

const SHUTDOWN: BinarySpec = {
  id: 'shutdown',
  ticker: 'KXGOVSHUT',
  prior: 0.28,
  heat: 1.6,
  title: (d) => `US government shutdown by ${longDate(d)}`,
  a: (d) =>
    same(
      `Will the U.S. federal government shut down by ${longDate(d)}?`,
      `This market will resolve to "Yes" if a lapse in appropriations causes the Office of Personnel Management to announce a federal government shutdown before ${longDate(d)}, 11:59 PM ET. Otherwise, "No".`,
    ),
  b: (d) =>
    same(
      `Government shutdown before ${shortDateYear(d)}?`,
      `If the federal government shuts down due to a lapse in appropriations before ${shortDateYear(d)}, then the market resolves to Yes.`,
    ),
  similar: (d) => ({
    b: same(
      `Shutdown lasting more than 5 days by ${shortDateYear(d)}?`,
      `If a federal government shutdown begins before ${shortDateYear(d)} and lasts more than five full days, then the market resolves to Yes.`,
    ),
    closeTime: addDays(d, 10),
    ticker: 'KXSHUTLEN',
  }),
};

const COUNTRIES = [
  { name: 'Japan', adj: 'Japanese', body: 'House of Representatives', code: 'JP' },
  { name: 'Germany', adj: 'German', body: 'Bundestag', code: 'DE' },
  { name: 'Canada', adj: 'Canadian', body: 'House of Commons', code: 'CA' },
  { name: 'Spain', adj: 'Spanish', body: 'Congress of Deputies', code: 'ES' },
  { name: 'France', adj: 'French', body: 'National Assembly', code: 'FR' },
  { name: 'the United Kingdom', adj: 'UK', body: 'House of Commons', code: 'UK' },
];

const snapSpec = (c: (typeof COUNTRIES)[number]): BinarySpec => ({
  id: `snap-${c.code.toLowerCase()}`,
  ticker: `KXSNAP${c.code}`,
  prior: 0.15,
  title: (d) => `Snap election in ${c.name} by ${longDate(d)}`,
  a: (d) =>
    same(
      `Will ${c.name} hold a snap national election by ${longDate(d)}?`,
      `This market will resolve to "Yes" if voting in an early general election for the ${c.body} takes place in ${c.name} before ${longDate(d)}. Elections merely called, not held, do not count. Otherwise, "No".`,
    ),
  b: (d) =>
    same(
      `${c.adj} snap election held by ${shortDateYear(d)}?`,
      `If an early election to the ${c.body} is held before ${shortDateYear(d)}, then the market resolves to Yes.`,
    ),
  similar: (d) => ({
    b: same(
      `${c.adj} snap election called by ${shortDateYear(d)}?`,
      `If the ${c.body} is dissolved or an early election is formally called before ${shortDateYear(d)}, then the market resolves to Yes, even if voting happens later.`,
    ),
    ticker: `KXSNAPCALL${c.code}`,
  }),
});

/** Deadline questions on legislation, shutdowns and snap elections abroad. */
const deadlines: EventTemplate = {
  id: 'politics-deadline',
  category: 'politics',
  build({ anchor, rng }) {
    const when = () => endOfMonth(anchor, rng.pick([2, 4, 6, 8]));
    const specs = [...rng.sample(BILLS, 3).map(billSpec), SHUTDOWN, ...rng.sample(COUNTRIES, 3).map(snapSpec)];
    return specs.map((s) => binaryEvent('politics-deadline', 'politics', s, when(), rng.int(60, 200)));
  },
};

/** Presidential approval ladder; venue_b's alternative uses another polling average. */
const approval: EventTemplate = {
  id: 'approval',
  category: 'politics',
  build({ anchor, rng }) {
    const d = endOfMonth(anchor, 1, 20, 0);
    const ths = [40, 42, 44, 46].slice(rng.int(0, 1), 4);
    const legs: Leg[] = ths.map((th) => ({
      key: `t${th}`,
      label: `${th}%`,
      a: {
        title: `Will the President's approval rating be above ${th}% on ${monthDay(d)}?`,
        description: `This market will resolve to "Yes" if the Silver Bulletin presidential approval average shows approval above ${th}.0% for ${longDate(d)}. Otherwise, "No".`,
      },
      b: {
        title: `Approval rating above ${th}% on ${shortDate(d)}?`,
        description: `If the President's approval in the Silver Bulletin average is above ${th}% on ${shortDateYear(d)}, then the market resolves to Yes.`,
      },
      bTicker: `T${th}`,
    }));
    const title = `Presidential approval rating on ${longDate(d)}`;
    const draft: EventDraft = {
      key: `approval:${isoDay(d)}`,
      category: 'politics',
      title,
      slug: slugify(title),
      closeTime: d,
      listedDays: rng.int(30, 60),
      a: {
        title: `Presidential approval rating on ${monthDay(d)}?`,
        description: `Markets on the Silver Bulletin average of the President's job approval on ${longDate(d)}.`,
      },
      b: {
        title: `Presidential approval on ${shortDateYear(d)}`,
        description: `Where will the President's approval rating stand on ${shortDateYear(d)}?`,
        eventTicker: `KXAPPROVE-${tickerDate(d)}`,
      },
      similar: {
        b: {
          title: `Approval rating (RCP average) on ${shortDateYear(d)}`,
          description: `Resolves on the RealClearPolitics average of presidential approval.`,
          eventTicker: `KXAPPRCP-${tickerDate(d)}`,
        },
        closeTime: d,
        markets: Object.fromEntries(
          ths.map((th) => [
            `t${th}`,
            {
              title: `RCP approval above ${th}% on ${shortDate(d)}?`,
              description: `If the RealClearPolitics presidential approval average is above ${th}% on ${shortDateYear(d)}, then the market resolves to Yes.`,
            },
          ]),
        ),
      },
      markets: withPriors(legs, ladderPriors(legs.length, rng)),
      exclusive: false,
      heat: 1.1,
    };
    return [draft];
  },
};

/** Politics templates. */
export const POLITICS_TEMPLATES: EventTemplate[] = [elections, deadlines, approval];
