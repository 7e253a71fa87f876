import { addDays, isoDay, longDate, shortDate, tickerDate, tickerYear, utc } from './sim-dates';
import type { EventDraft, EventTemplate } from './sim-catalog.types';
import { candidatePriors, slugify } from './sim-catalog.types';
import type { Prng } from './prng';
import { type Leg, withPriors } from './sim-template-kit';

type Team = [name: string, short: string, code: string];

interface League {
  id: string;
  name: string;
  series: string;
  /** Months (0-based) with regular-season games. */
  months: number[];
  kickoffHour: number;
  draws: boolean;
  teams: Team[];
}

const LEAGUES: League[] = [
  {
    id: 'epl',
    name: 'Premier League',
    series: 'KXEPLGAME',
    months: [0, 1, 2, 3, 4, 7, 8, 9, 10, 11],
    kickoffHour: 15,
    draws: true,
    teams: [
      ['Arsenal', 'Arsenal', 'ARS'],
      ['Chelsea', 'Chelsea', 'CHE'],
      ['Liverpool', 'Liverpool', 'LIV'],
      ['Manchester City', 'Man City', 'MCI'],
      ['Manchester United', 'Man United', 'MUN'],
      ['Tottenham Hotspur', 'Tottenham', 'TOT'],
      ['Newcastle United', 'Newcastle', 'NEW'],
      ['Aston Villa', 'Aston Villa', 'AVL'],
    ],
  },
  {
    id: 'nba',
    name: 'NBA',
    series: 'KXNBAGAME',
    months: [0, 1, 2, 3, 9, 10, 11],
    kickoffHour: 0,
    draws: false,
    teams: [
      ['Boston Celtics', 'Celtics', 'BOS'],
      ['Oklahoma City Thunder', 'Thunder', 'OKC'],
      ['Denver Nuggets', 'Nuggets', 'DEN'],
      ['New York Knicks', 'Knicks', 'NYK'],
      ['Cleveland Cavaliers', 'Cavaliers', 'CLE'],
      ['Los Angeles Lakers', 'Lakers', 'LAL'],
      ['Golden State Warriors', 'Warriors', 'GSW'],
    ],
  },
  {
    id: 'nfl',
    name: 'NFL',
    series: 'KXNFLGAME',
    months: [0, 8, 9, 10, 11],
    kickoffHour: 18,
    draws: false,
    teams: [
      ['Kansas City Chiefs', 'Chiefs', 'KC'],
      ['Philadelphia Eagles', 'Eagles', 'PHI'],
      ['Baltimore Ravens', 'Ravens', 'BAL'],
      ['Buffalo Bills', 'Bills', 'BUF'],
      ['Detroit Lions', 'Lions', 'DET'],
      ['San Francisco 49ers', '49ers', 'SF'],
    ],
  },
  {
    id: 'mlb',
    name: 'MLB',
    series: 'KXMLBGAME',
    months: [3, 4, 5, 6, 7, 8],
    kickoffHour: 23,
    draws: false,
    teams: [
      ['New York Yankees', 'Yankees', 'NYY'],
      ['Los Angeles Dodgers', 'Dodgers', 'LAD'],
      ['Philadelphia Phillies', 'Phillies', 'PHI'],
      ['Atlanta Braves', 'Braves', 'ATL'],
      ['Houston Astros', 'Astros', 'HOU'],
    ],
  },
];

function game(league: League, home: Team, away: Team, kickoff: Date, rng: Prng): EventDraft {
  const d = kickoff;
  const code = `${tickerDate(d)}${home[2]}${away[2]}`;
  const eventTicker = `${league.series}-${code}`;
  const regulation = league.draws ? ' in regulation (90 minutes plus stoppage time)' : ' (including overtime)';
  const pHome = 0.3 + rng.next() * 0.3;
  const pDraw = league.draws ? 0.22 + rng.next() * 0.06 : 0;
  const sides: { key: string; label: string; team: Team | null; prior: number }[] = [
    { key: home[2].toLowerCase(), label: home[0], team: home, prior: pHome },
    { key: away[2].toLowerCase(), label: away[0], team: away, prior: Math.max(0.05, 1 - pHome - pDraw) },
  ];
  if (league.draws) sides.push({ key: 'tie', label: 'Draw', team: null, prior: pDraw });
  const legs: Leg[] = sides.map((s) => ({
    key: s.key,
    label: s.label,
    a: s.team
      ? {
          title: `Will ${s.team[0]} win on ${longDate(d)}?`,
          description: `In the upcoming ${league.name} game between ${home[0]} and ${away[0]}, scheduled for ${longDate(d)}: if ${s.team[0]} wins${regulation}, this market will resolve to "Yes". Otherwise, "No". If the game is postponed, the market stays open until it is played; if cancelled, it resolves "No".`,
        }
      : {
          title: `Will ${home[0]} vs. ${away[0]} end in a draw?`,
          description: `In the upcoming ${league.name} game scheduled for ${longDate(d)}: if the game ends level after 90 minutes plus stoppage time, this market will resolve to "Yes". Otherwise, "No".`,
        },
    b: {
      title: s.team ? `${home[1]} vs ${away[1]}: ${s.team[1]} win?` : `${home[1]} vs ${away[1]}: tie?`,
      description: s.team
        ? `If the ${s.team[1]} win the ${shortDate(d)} game against the ${s.team === home ? away[1] : home[1]}${regulation}, then the market resolves to Yes.`
        : `If the ${shortDate(d)} ${home[1]} vs ${away[1]} game is tied after regulation, then the market resolves to Yes.`,
    },
    bTicker: s.key.toUpperCase(),
  }));
  const title = `${home[0]} vs. ${away[0]} (${league.name}, ${longDate(d)})`;
  return {
    key: `game:${league.id}:${isoDay(d)}:${home[2]}-${away[2]}`,
    category: 'sports',
    title,
    slug: slugify(`${home[0]} vs ${away[0]} ${isoDay(d)}`),
    closeTime: new Date(d.getTime() + 3 * 3_600_000),
    listedDays: rng.int(10, 21),
    a: {
      title: `${home[0]} vs. ${away[0]}`,
      description: `${league.name} game, ${home[0]} host ${away[0]} on ${longDate(d)}.`,
    },
    b: {
      title: `${away[1]} at ${home[1]} (${shortDate(d)}) winner?`,
      description: `Who will win the ${league.name} game on ${shortDate(d)}?`,
      eventTicker,
    },
    markets: withPriors(
      legs,
      sides.map((s) => s.prior),
    ),
    exclusive: true,
    heat: 1.5 + rng.next(),
  };
}

/** Single games: a couple already played, the rest next month, from leagues in season then. */
const games: EventTemplate = {
  id: 'games',
  category: 'sports',
  build({ anchor, rng }) {
    const out: EventDraft[] = [];
    const plan: [offsetDays: number, count: number][] = [
      [-6, 2],
      [34, 7],
    ];
    for (const [offset, count] of plan) {
      const base = addDays(anchor, offset);
      const leagues = LEAGUES.filter((l) => l.months.includes(base.getUTCMonth()));
      for (let i = 0; i < count; i++) {
        const league = rng.pick(leagues.length > 0 ? leagues : LEAGUES);
        const [home, away] = rng.sample(league.teams, 2) as [Team, Team];
        const day = addDays(base, rng.int(0, 12));
        const kickoff = utc(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), league.kickoffHour);
        const g = game(league, home, away, kickoff, rng);
        if (!out.some((o) => o.key === g.key)) out.push(g);
      }
    }
    return out;
  },
};

interface Competition {
  id: string;
  series: string;
  endMonth: number;
  endDay: number;
  /** Contenders as [full name, short name, code]. */
  field: Team[];
  a(year: number): { event: string; market(team: string): string };
  b(year: number): { event: string; market(team: string): string };
}

const season = (y: number) => `${y - 1}-${tickerYear(y)}`;
const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX'];
const superBowl = (y: number) => `LX${ROMAN[(y - 1966 - 60) % 10] ?? ''}`;

const COMPETITIONS: Competition[] = [
  {
    id: 'nba-finals',
    series: 'KXNBA',
    endMonth: 5,
    endDay: 20,
    field: LEAGUES[1]?.teams.slice(0, 5) ?? [],
    a: (y) => ({ event: `${y} NBA Champion`, market: (t) => `Will the ${t} win the ${y} NBA Finals?` }),
    b: (y) => ({ event: `Pro basketball champion ${y}?`, market: (t) => `${t} win the ${y} NBA Finals?` }),
  },
  {
    id: 'super-bowl',
    series: 'KXSB',
    endMonth: 1,
    endDay: 9,
    field: LEAGUES[2]?.teams.slice(0, 5) ?? [],
    a: (y) => ({ event: `Super Bowl Champion ${y}`, market: (t) => `Will the ${t} win Super Bowl ${superBowl(y)}?` }),
    b: (y) => ({
      event: `Pro football champion (Super Bowl ${superBowl(y)})?`,
      market: (t) => `${t} win Super Bowl ${superBowl(y)}?`,
    }),
  },
  {
    id: 'epl-title',
    series: 'KXEPL',
    endMonth: 4,
    endDay: 24,
    field: LEAGUES[0]?.teams.slice(0, 5) ?? [],
    a: (y) => ({
      event: `Premier League Winner ${season(y)}`,
      market: (t) => `Will ${t} win the ${season(y)} English Premier League?`,
    }),
    b: (y) => ({
      event: `English Premier League champion ${season(y)}?`,
      market: (t) => `${t} win the ${y - 1}/${tickerYear(y)} Premier League?`,
    }),
  },
  {
    id: 'ucl',
    series: 'KXUCL',
    endMonth: 4,
    endDay: 30,
    field: [
      ['Real Madrid', 'Real Madrid', 'RMA'],
      ['Paris Saint-Germain', 'PSG', 'PSG'],
      ['Bayern Munich', 'Bayern', 'BAY'],
      ['Barcelona', 'Barcelona', 'BAR'],
      ['Arsenal', 'Arsenal', 'ARS'],
    ],
    a: (y) => ({
      event: `Champions League Winner ${season(y)}`,
      market: (t) => `Will ${t} win the ${season(y)} UEFA Champions League?`,
    }),
    b: (y) => ({
      event: `UEFA Champions League winner ${y - 1}/${tickerYear(y)}?`,
      market: (t) => `${t} win the Champions League final in ${y}?`,
    }),
  },
  {
    id: 'world-series',
    series: 'KXMLB',
    endMonth: 10,
    endDay: 1,
    field: LEAGUES[3]?.teams ?? [],
    a: (y) => ({ event: `World Series Champion ${y}`, market: (t) => `Will the ${t} win the ${y} World Series?` }),
    b: (y) => ({ event: `Pro baseball champion ${y}?`, market: (t) => `${t} win the ${y} World Series?` }),
  },
  {
    id: 'f1-drivers',
    series: 'KXF1',
    endMonth: 11,
    endDay: 6,
    field: [
      ['Lando Norris', 'Norris', 'NOR'],
      ['Max Verstappen', 'Verstappen', 'VER'],
      ['Oscar Piastri', 'Piastri', 'PIA'],
      ['Charles Leclerc', 'Leclerc', 'LEC'],
      ['George Russell', 'Russell', 'RUS'],
    ],
    a: (y) => ({
      event: `F1 Drivers' Champion ${y}`,
      market: (t) => `Will ${t} win the ${y} F1 Drivers' Championship?`,
    }),
    b: (y) => ({ event: `Formula 1 drivers' champion ${y}?`, market: (t) => `${t} wins the ${y} F1 title?` }),
  },
];

/** Season-long futures on the next edition of several competitions. */
const futures: EventTemplate = {
  id: 'futures',
  category: 'sports',
  build({ anchor, rng }) {
    return rng.sample(COMPETITIONS, 4).map((c): EventDraft => {
      let y = anchor.getUTCFullYear();
      while (utc(y, c.endMonth, c.endDay).getTime() < anchor.getTime() + 20 * 86_400_000) y++;
      const close = utc(y, c.endMonth, c.endDay, 23, 59);
      const field = rng.sample(c.field, 4);
      const a = c.a(y);
      const b = c.b(y);
      const legs: Leg[] = field.map(([full, short, code]) => ({
        key: code.toLowerCase(),
        label: full,
        a: {
          title: a.market(full),
          description: `This market will resolve to "Yes" if ${full} ${c.id === 'f1-drivers' ? 'is' : 'are'} the official winner of the competition ("${a.event}"), expected to conclude by ${longDate(close)}. Otherwise, "No".`,
        },
        b: {
          title: b.market(short),
          description: `If ${full} win${c.id === 'f1-drivers' ? 's' : ''} (${b.event.replace(/\?$/, '')}), then the market resolves to Yes.`,
        },
        bTicker: code,
      }));
      return {
        key: `futures:${c.id}:${y}`,
        category: 'sports',
        title: a.event,
        slug: slugify(a.event),
        closeTime: close,
        listedDays: rng.int(200, 330),
        a: {
          title: a.event,
          description: `Who will win? One market per leading contender; each resolves "Yes" only for the official winner (${a.event}), expected by ${longDate(close)}.`,
        },
        b: {
          title: b.event,
          description: `Which contender will be crowned? Each market resolves Yes for the eventual winner only.`,
          eventTicker: `${c.series}-${tickerYear(y)}`,
        },
        markets: withPriors(legs, candidatePriors(legs.length, rng, 0.2)),
        exclusive: true,
        heat: 1.2 + rng.next(),
      };
    });
  },
};

/** Sports templates. */
export const SPORTS_TEMPLATES: EventTemplate[] = [games, futures];
