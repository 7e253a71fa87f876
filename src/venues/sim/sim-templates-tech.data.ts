import {
  endOfMonth,
  isoDay,
  longDate,
  monthDay,
  monthName,
  monthShort,
  monthYear,
  shortDate,
  shortDateYear,
  tickerDate,
} from './sim-dates';
import type { EventDraft, EventTemplate, Wording } from './sim-catalog.types';
import { candidatePriors, ladderPriors, slugify, usd } from './sim-catalog.types';
import { binaryEvent, type BinarySpec, type Leg, same, withPriors } from './sim-template-kit';

const LAUNCHES: { id: string; who: string; what: string; short: string; ticker: string; prior: number }[] = [
  { id: 'gpt-6', who: 'OpenAI', what: 'GPT-6', short: 'GPT-6', ticker: 'KXGPT6', prior: 0.35 },
  { id: 'gemini-4', who: 'Google', what: 'Gemini 4', short: 'Gemini 4', ticker: 'KXGEMINI4', prior: 0.45 },
  {
    id: 'foldable-iphone',
    who: 'Apple',
    what: 'a foldable iPhone',
    short: 'Foldable iPhone',
    ticker: 'KXIPHONEFOLD',
    prior: 0.3,
  },
  { id: 'grok-6', who: 'xAI', what: 'Grok 6', short: 'Grok 6', ticker: 'KXGROK6', prior: 0.4 },
  { id: 'gta-6', who: 'Rockstar Games', what: 'Grand Theft Auto VI', short: 'GTA VI', ticker: 'KXGTA6', prior: 0.55 },
];

const launchSpec = (l: (typeof LAUNCHES)[number]): BinarySpec => ({
  id: l.id,
  ticker: l.ticker,
  prior: l.prior,
  heat: 1.4,
  title: (d) => `${l.who} releases ${l.what} by ${longDate(d)}`,
  a: (d) =>
    same(
      `Will ${l.who} release ${l.what} by ${longDate(d)}?`,
      `This market will resolve to "Yes" if ${l.what} is made publicly available by ${l.who} (general availability to consumers or paying customers, not a waitlist or private preview) by ${longDate(d)}, 11:59 PM ET. Otherwise, "No".`,
    ),
  b: (d) =>
    same(
      `${l.short} released before ${shortDateYear(d)}?`,
      `If ${l.who} makes ${l.what} generally available to the public before ${shortDateYear(d)}, then the market resolves to Yes.`,
    ),
  similar: (d) => {
    // Same question, later deadline: a timeframe mismatch a matcher should flag.
    const later = endOfMonth(d, 3);
    return {
      b: same(
        `${l.short} out before ${shortDateYear(later)}?`,
        `If ${l.what} from ${l.who} is generally available to the public before ${shortDateYear(later)}, then the market resolves to Yes.`,
      ),
      closeTime: later,
      ticker: `${l.ticker}Q`,
    };
  },
});

const COMPANIES: [name: string, code: string][] = [
  ['Nvidia', 'NVDA'],
  ['Microsoft', 'MSFT'],
  ['Apple', 'AAPL'],
  ['Alphabet', 'GOOGL'],
  ['Amazon', 'AMZN'],
];

const LABS: [name: string, code: string][] = [
  ['Google', 'GOOG'],
  ['OpenAI', 'OAI'],
  ['Anthropic', 'ANTH'],
  ['xAI', 'XAI'],
];

function rankingEvent(
  kind: 'largest-company' | 'top-ai-model',
  d: Date,
  listedDays: number,
  priors: number[],
): EventDraft {
  const company = kind === 'largest-company';
  const field = company ? COMPANIES.slice(0, 4) : LABS;
  const legs: Leg[] = field.map(([name, code]) => ({
    key: code.toLowerCase(),
    label: name,
    a: company
      ? {
          title: `Will ${name} be the largest company in the world by market cap on ${longDate(d)}?`,
          description: `This market will resolve to "Yes" if ${name} has the largest market capitalization of any publicly traded company at market close on ${longDate(d)}, per companiesmarketcap.com. Otherwise, "No".`,
        }
      : {
          title: `Will ${name} have the top AI model at the end of ${monthYear(d)}?`,
          description: `This market will resolve to "Yes" if a model from ${name} ranks first on the LMArena text leaderboard (style control on) when checked on ${longDate(d)}, 12:00 PM ET. Ties resolve to the alphabetically first company. Otherwise, "No".`,
        },
    b: company
      ? {
          title: `${name} largest company on ${shortDate(d)}?`,
          description: `If ${name} has the highest market capitalization of any public company at the close on ${shortDateYear(d)}, then the market resolves to Yes.`,
        }
      : {
          title: `${name} has the top model on ${shortDate(d)}?`,
          description: `If ${name}'s best model is ranked #1 on the LMArena text leaderboard on ${shortDateYear(d)}, then the market resolves to Yes.`,
        },
    bTicker: code,
  }));
  const title = company
    ? `Largest company by market cap on ${longDate(d)}`
    : `Top AI model at the end of ${monthYear(d)}`;
  const draft: EventDraft = {
    key: `${kind}:${isoDay(d)}`,
    category: 'tech',
    title,
    slug: slugify(title),
    closeTime: d,
    listedDays,
    a: company
      ? {
          title: `Largest company in the world on ${monthDay(d)}?`,
          description: `Which company will have the largest market capitalization at market close on ${longDate(d)}?`,
        }
      : {
          title: `Which company has the best AI model end of ${monthName(d)}?`,
          description: `Resolves on the LMArena text leaderboard at noon ET on ${longDate(d)}.`,
        },
    b: company
      ? {
          title: `Largest company by market cap at the end of ${monthYear(d)}`,
          description: `Which company will be the world's most valuable at the close on ${shortDateYear(d)}?`,
          eventTicker: `KXLARGESTCO-${tickerDate(d)}`,
        }
      : {
          title: `Top AI model at end of ${monthShort(d)} (LMArena)?`,
          description: `Which lab will hold the #1 spot on the LMArena text leaderboard?`,
          eventTicker: `KXTOPMODEL-${tickerDate(d)}`,
        },
    markets: withPriors(legs, priors),
    exclusive: true,
    heat: 1.3,
  };
  if (!company) {
    draft.similar = {
      b: {
        title: `Top AI lab by Intelligence Index at end of ${monthShort(d)}?`,
        description: `Resolves on the Artificial Analysis Intelligence Index rather than LMArena.`,
        eventTicker: `KXTOPLAB-${tickerDate(d)}`,
      },
      closeTime: d,
      markets: Object.fromEntries(
        LABS.map(([name, code]): [string, Wording] => [
          code.toLowerCase(),
          {
            title: `${name} leads the AI Intelligence Index on ${shortDate(d)}?`,
            description: `If a ${name} model ranks first on the Artificial Analysis Intelligence Index on ${shortDateYear(d)}, then the market resolves to Yes.`,
          },
        ]),
      ),
    };
  }
  return draft;
}

/** Launch deadlines, company and AI-lab rankings, and a stock price ladder. */
const tech: EventTemplate = {
  id: 'tech',
  category: 'tech',
  build({ anchor, rng }) {
    const launches = rng
      .sample(LAUNCHES, 4)
      .map((l) =>
        binaryEvent('tech-launch', 'tech', launchSpec(l), endOfMonth(anchor, rng.pick([1, 3, 5, 7])), rng.int(60, 240)),
      );
    const rankings = [
      rankingEvent('largest-company', endOfMonth(anchor, 1, 21, 0), rng.int(40, 90), candidatePriors(4, rng, 0.02)),
      rankingEvent('top-ai-model', endOfMonth(anchor, 0, 17, 0), rng.int(25, 60), candidatePriors(4, rng, 0.02)),
      rankingEvent('top-ai-model', endOfMonth(anchor, 2, 17, 0), rng.int(40, 90), candidatePriors(4, rng, 0.02)),
    ];
    const stock = rng.pick([
      { name: 'Tesla', sym: 'TSLA', ths: [350, 400, 450, 500] },
      { name: 'Nvidia', sym: 'NVDA', ths: [150, 175, 200, 225] },
      { name: 'Apple', sym: 'AAPL', ths: [225, 250, 275, 300] },
    ]);
    const d = endOfMonth(anchor, 1, 21, 0);
    const legs: Leg[] = stock.ths.slice(0, 3).map((th) => ({
      key: `t${th}`,
      label: usd(th),
      a: {
        title: `Will ${stock.name} (${stock.sym}) close above ${usd(th)} on ${monthDay(d)}?`,
        description: `This market will resolve to "Yes" if the official Nasdaq closing price of ${stock.sym} on ${longDate(d)} is above ${usd(th)}. Otherwise, "No".`,
      },
      b: {
        title: `${stock.name} above ${usd(th)} on ${shortDate(d)}?`,
        description: `If ${stock.sym} closes above ${th}.00 on ${shortDateYear(d)}, then the market resolves to Yes.`,
      },
      bTicker: `T${th}`,
    }));
    const title = `${stock.name} (${stock.sym}) closing price on ${longDate(d)}`;
    const ladder: EventDraft = {
      key: `stock-close:${stock.sym}:${isoDay(d)}`,
      category: 'tech',
      title,
      slug: slugify(title),
      closeTime: d,
      listedDays: rng.int(30, 60),
      a: {
        title: `${stock.sym} close price on ${monthDay(d)}?`,
        description: `Markets on ${stock.name}'s official closing price on ${longDate(d)}.`,
      },
      b: {
        title: `${stock.name} stock price on ${shortDateYear(d)}`,
        description: `Where will ${stock.sym} close on ${shortDateYear(d)}?`,
        eventTicker: `KX${stock.sym}-${tickerDate(d)}`,
      },
      markets: withPriors(legs, ladderPriors(3, rng)),
      exclusive: false,
      prefer: 'venue_a',
      heat: 1.1,
    };
    return [...launches, ...rankings, ladder];
  },
};

/** Tech templates. */
export const TECH_TEMPLATES: EventTemplate[] = [tech];
