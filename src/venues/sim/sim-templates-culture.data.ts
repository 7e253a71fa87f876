import {
  addDays,
  isoDay,
  longDate,
  monthDay,
  nthWeekday,
  shortDate,
  shortDateYear,
  tickerDate,
  tickerYear,
  utc,
} from './sim-dates';
import type { EventDraft, EventTemplate } from './sim-catalog.types';
import { candidatePriors, ladderPriors, slugify, tickerCode } from './sim-catalog.types';
import type { Prng } from './prng';
import { type Leg, withPriors } from './sim-template-kit';

interface Award {
  id: string;
  series: string;
  /** Date of the next edition after `after`. */
  date(after: Date): Date;
  field: string[];
  pick: number;
  a(y: number): { event: string; description: string; market(n: string): string; rule(n: string): string };
  b(y: number): { event: string; description: string; market(n: string): string; rule(n: string): string };
}

/** The first `month/day` (0-based month) after `after` + 20 days. */
function nextDate(after: Date, month: number, day: number, hour = 3): Date {
  let y = after.getUTCFullYear();
  while (utc(y, month, day).getTime() < after.getTime() + 20 * 86_400_000) y++;
  return utc(y, month, day, hour);
}

const AWARDS: Award[] = [
  {
    id: 'oscars-picture',
    series: 'KXOSCARPIC',
    date: (after) => nextDate(after, 2, 8),
    field: [
      'The Quiet Harbor',
      'Ashes of Summer',
      'A Long Way Down',
      "The Cartographer's Daughter",
      'Paper Kingdoms',
      'Northern Lights Fall',
    ],
    pick: 4,
    a: (y) => ({
      event: `Oscars ${y}: Best Picture Winner`,
      description: `Which film will win Best Picture at the ${y - 1928}th Academy Awards?`,
      market: (n) => `Will "${n}" win Best Picture at the ${y} Oscars?`,
      rule: (n) =>
        `This market will resolve to "Yes" if "${n}" is announced as the winner of Best Picture at the ${y - 1928}th Academy Awards. Otherwise, "No".`,
    }),
    b: (y) => ({
      event: `Best Picture winner at the ${y - 1928}th Academy Awards?`,
      description: `Which nominee takes home the top prize?`,
      market: (n) => `${n} wins Best Picture?`,
      rule: (n) => `If ${n} wins Best Picture at the ${y} Academy Awards ceremony, then the market resolves to Yes.`,
    }),
  },
  {
    id: 'spotify-wrapped',
    series: 'KXSPOTIFYTOP',
    date: (after) => nextDate(after, 11, 3, 14),
    field: ['Taylor Swift', 'Bad Bunny', 'The Weeknd', 'Drake', 'Billie Eilish', 'Sabrina Carpenter'],
    pick: 4,
    a: (y) => ({
      event: `Spotify Top Artist ${y}`,
      description: `Who will be Spotify's most-streamed artist globally in ${y}, per Spotify Wrapped?`,
      market: (n) => `Will ${n} be Spotify's most-streamed artist of ${y}?`,
      rule: (n) =>
        `This market will resolve to "Yes" if Spotify's official ${y} Wrapped announcement names ${n} as the most-streamed artist globally. Otherwise, "No".`,
    }),
    b: (y) => ({
      event: `Most streamed artist on Spotify in ${y}?`,
      description: `Global top artist in Spotify Wrapped ${y}.`,
      market: (n) => `${n} top Spotify artist in ${y}?`,
      rule: (n) => `If Spotify Wrapped ${y} lists ${n} as the top global artist, then the market resolves to Yes.`,
    }),
  },
  {
    id: 'eurovision',
    series: 'KXEUROVISION',
    date: (after) => nextDate(after, 4, 16, 22),
    field: ['Sweden', 'Ukraine', 'Italy', 'France', 'Finland', 'Netherlands', 'Norway'],
    pick: 4,
    a: (y) => ({
      event: `Eurovision Winner ${y}`,
      description: `Which country will win the Eurovision Song Contest ${y} grand final?`,
      market: (n) => `Will ${n} win Eurovision ${y}?`,
      rule: (n) =>
        `This market will resolve to "Yes" if ${n}'s entry wins the grand final of the Eurovision Song Contest ${y}. Otherwise, "No".`,
    }),
    b: (y) => ({
      event: `Eurovision ${y} winning country?`,
      description: `Winner of the Eurovision Song Contest ${y}.`,
      market: (n) => `${n} wins Eurovision ${y}?`,
      rule: (n) => `If ${n} wins the Eurovision Song Contest ${y}, then the market resolves to Yes.`,
    }),
  },
  {
    id: 'game-awards',
    series: 'KXGOTY',
    date: (after) => nextDate(after, 11, 11),
    field: ['Hollow Crown', 'Starbound Odyssey', 'Neon Requiem', 'The Tidewalker', 'Ember & Iron'],
    pick: 4,
    a: (y) => ({
      event: `Game of the Year ${y}`,
      description: `Which game will win Game of the Year at The Game Awards ${y}?`,
      market: (n) => `Will ${n} win Game of the Year at The Game Awards ${y}?`,
      rule: (n) =>
        `This market will resolve to "Yes" if ${n} is announced as Game of the Year at The Game Awards ${y}. Otherwise, "No".`,
    }),
    b: (y) => ({
      event: `The Game Awards ${y}: Game of the Year?`,
      description: `GOTY winner at The Game Awards.`,
      market: (n) => `${n} wins GOTY ${y}?`,
      rule: (n) => `If ${n} wins Game of the Year at The Game Awards ${y}, then the market resolves to Yes.`,
    }),
  },
  {
    id: 'emmys-drama',
    series: 'KXEMMYDRAMA',
    date: (after) => nextDate(after, 8, 14),
    field: ['The Long Winter', 'Harbor Lights', 'Cold Ledger', 'The Dominion', 'Glasshouse'],
    pick: 4,
    a: (y) => ({
      event: `Emmys ${y}: Outstanding Drama Series`,
      description: `Which show will win Outstanding Drama Series at the ${y} Primetime Emmy Awards?`,
      market: (n) => `Will "${n}" win Outstanding Drama Series at the ${y} Emmys?`,
      rule: (n) =>
        `This market will resolve to "Yes" if "${n}" wins Outstanding Drama Series at the ${y} Primetime Emmy Awards. Otherwise, "No".`,
    }),
    b: (y) => ({
      event: `Best drama series at the ${y} Emmys?`,
      description: `Outstanding Drama Series winner.`,
      market: (n) => `${n} wins Best Drama at the Emmys?`,
      rule: (n) => `If ${n} wins Outstanding Drama Series at the ${y} Emmys, then the market resolves to Yes.`,
    }),
  },
];

function award(aw: Award, anchor: Date, rng: Prng): EventDraft {
  const d = aw.date(anchor);
  const y = d.getUTCFullYear();
  const a = aw.a(y);
  const b = aw.b(y);
  const legs: Leg[] = rng.sample(aw.field, aw.pick).map((n) => ({
    key: slugify(n),
    label: n,
    a: { title: a.market(n), description: a.rule(n) },
    b: { title: b.market(n), description: b.rule(n) },
    bTicker: tickerCode(n, 4),
  }));
  return {
    key: `award:${aw.id}:${y}`,
    category: 'culture',
    title: a.event,
    slug: slugify(a.event),
    closeTime: d,
    listedDays: rng.int(90, 220),
    a: { title: a.event, description: a.description },
    b: { title: b.event, description: b.description, eventTicker: `${aw.series}-${tickerYear(y)}` },
    markets: withPriors(legs, candidatePriors(legs.length, rng)),
    exclusive: true,
    heat: 0.9 + rng.next(),
  };
}

const FILMS = ['Starfall: Reckoning', 'The Last Lighthouse', 'Midnight Circuit', 'Velocity 3', 'Kingdom of Tides'];

function openingWeekend(film: string, release: Date, rng: Prng): EventDraft {
  const close = addDays(release, 3);
  const start = rng.int(0, 2);
  const ths = [50, 75, 100, 150, 200].slice(start, start + 3);
  const code = tickerCode(film, 4);
  const legs: Leg[] = ths.map((th) => ({
    key: `t${th}`,
    label: `$${th}M`,
    a: {
      title: `Will "${film}" gross more than $${th} million in its domestic opening weekend?`,
      description: `This market will resolve to "Yes" if "${film}" grosses more than $${th},000,000 in the US and Canada over its three-day opening weekend starting ${longDate(release)}, per Box Office Mojo's first reported actuals. Otherwise, "No".`,
    },
    b: {
      title: `${film} opening weekend above $${th}M?`,
      description: `If ${film} earns more than $${th} million domestically in its Friday-Sunday opening weekend, then the market resolves to Yes.`,
    },
    bTicker: `T${th}`,
  }));
  const title = `"${film}" opening weekend box office`;
  return {
    key: `box-office:${slugify(film)}:${isoDay(release)}`,
    category: 'culture',
    title,
    slug: slugify(`${film} opening weekend box office`),
    closeTime: close,
    listedDays: rng.int(30, 60),
    a: {
      title: `"${film}" opening weekend box office?`,
      description: `Markets on the domestic three-day opening gross of "${film}", opening ${monthDay(release)}.`,
    },
    b: {
      title: `${film} domestic opening (${shortDate(release)})`,
      description: `How much will ${film} make in its opening weekend?`,
      eventTicker: `KXBOXOFFICE-${tickerDate(release)}${code}`,
    },
    similar: {
      b: {
        title: `${film} global opening (${shortDate(release)})`,
        description: `Worldwide opening-weekend gross, including international markets.`,
        eventTicker: `KXBOXOFFICEWW-${tickerDate(release)}${code}`,
      },
      closeTime: addDays(close, 1),
      markets: Object.fromEntries(
        ths.map((th) => [
          `t${th}`,
          {
            title: `${film} worldwide opening above $${th * 2}M?`,
            description: `If ${film}'s worldwide opening-weekend gross exceeds $${th * 2} million as of ${shortDateYear(addDays(close, 1))}, then the market resolves to Yes.`,
          },
        ]),
      ),
    },
    markets: withPriors(legs, ladderPriors(3, rng)),
    exclusive: false,
    heat: 1,
  };
}

/** Awards, streaming charts and box-office openings. */
const culture: EventTemplate = {
  id: 'culture',
  category: 'culture',
  build({ anchor, rng }) {
    const awards = rng.sample(AWARDS, 4).map((aw) => award(aw, anchor, rng));
    const films = rng.sample(FILMS, 2).map((film, i) => {
      const month = utc(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1 + i, 1);
      const release = nthWeekday(month.getUTCFullYear(), month.getUTCMonth(), 5, rng.int(1, 3), 4);
      return openingWeekend(film, release, rng);
    });
    return [...awards, ...films];
  },
};

/** Culture templates. */
export const CULTURE_TEMPLATES: EventTemplate[] = [culture];
