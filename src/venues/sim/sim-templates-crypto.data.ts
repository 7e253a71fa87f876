import { endOfMonth, isoDay, longDate, monthDay, shortDate, shortDateYear, tickerDate } from './sim-dates';
import type { EventDraft, EventTemplate, Wording } from './sim-catalog.types';
import { fmtNum, ladderPriors, slugify, tickerNum, usd, usdShort } from './sim-catalog.types';
import { binaryEvent, type BinarySpec, type Leg, same, withPriors } from './sim-template-kit';

interface Asset {
  name: string;
  sym: string;
  series: string;
  thresholds: number[];
}

const ASSETS: Asset[] = [
  { name: 'Bitcoin', sym: 'BTC', series: 'KXBTC', thresholds: [90000, 100000, 110000, 120000, 130000, 150000] },
  { name: 'Ethereum', sym: 'ETH', series: 'KXETH', thresholds: [3000, 3500, 4000, 4500, 5000, 6000] },
  { name: 'Solana', sym: 'SOL', series: 'KXSOL', thresholds: [150, 175, 200, 250, 300] },
  { name: 'XRP', sym: 'XRP', series: 'KXXRP', thresholds: [2, 2.5, 3, 4] },
  { name: 'Dogecoin', sym: 'DOGE', series: 'KXDOGE', thresholds: [0.2, 0.25, 0.3, 0.4, 0.5] },
];

function priceLeg(asset: Asset, date: Date, th: number): Leg {
  const a: Wording = {
    title: `Will the price of ${asset.name} be above ${usd(th)} on ${monthDay(date)}?`,
    description:
      `This market will resolve to "Yes" if the Binance 1 minute candle for ${asset.sym}/USDT 12:00 in the ET timezone (noon) on ${longDate(date)} ` +
      `has a final "Close" price higher than ${usd(th)}. Otherwise, this market will resolve to "No". The resolution source is Binance, ` +
      `specifically the ${asset.sym}/USDT "Close" prices with "1m" and "Candles" selected.`,
  };
  const b: Wording = {
    title: `${asset.name} above ${usdShort(th)} on ${shortDate(date)}?`,
    description:
      `If the ${asset.name} reference price (${asset.sym}/USD, one-minute close) at 12:00 PM ET on ${shortDateYear(date)} is above ` +
      `${fmtNum(th)}, then the market resolves to Yes. Otherwise, it resolves to No.`,
  };
  return { key: `t${tickerNum(th)}`, label: usd(th), a, b, bTicker: `T${tickerNum(th)}` };
}

/** Threshold ladders on a coin's price at noon ET on a month end. */
const cryptoPrice: EventTemplate = {
  id: 'crypto-price',
  category: 'crypto',
  build({ anchor, rng }) {
    return rng.sample(ASSETS, 4).map((asset, i): EventDraft => {
      const date = endOfMonth(anchor, [0, 1, 2, 4][i] ?? 1, 17, 0);
      const n = rng.int(2, 4);
      const start = rng.int(0, asset.thresholds.length - n);
      const ths = asset.thresholds.slice(start, start + n);
      const legs = ths.map((th) => priceLeg(asset, date, th));
      const touch: Record<string, Wording> = {};
      for (const th of ths) {
        touch[`t${tickerNum(th)}`] = {
          title: `${asset.name} to hit ${usdShort(th)} before ${shortDate(date)}?`,
          description:
            `If ${asset.name} trades at or above ${fmtNum(th)} on the CF Benchmarks Real-Time Index at any time before ` +
            `11:59 PM ET on ${shortDateYear(date)}, then the market resolves to Yes.`,
        };
      }
      const title = `${asset.name} price on ${longDate(date)}`;
      return {
        key: `crypto-price:${asset.sym}:${isoDay(date)}`,
        category: 'crypto',
        title,
        slug: slugify(title),
        closeTime: date,
        listedDays: rng.int(30, 120),
        a: {
          title: `${asset.name} price on ${monthDay(date)}?`,
          description:
            `Markets on where ${asset.name} (${asset.sym}) will trade at noon ET on ${longDate(date)}, measured by the Binance ` +
            `${asset.sym}/USDT one-minute candle close. Each market resolves "Yes" if the close is higher than its listed price.`,
        },
        b: {
          title: `${asset.sym} price at noon ET on ${shortDateYear(date)}`,
          description: `Where will ${asset.name} be at 12:00 PM ET on ${shortDateYear(date)}? Each strike resolves Yes if the reference price is above it.`,
          eventTicker: `${asset.series}-${tickerDate(date)}`,
        },
        similar: {
          b: {
            title: `How high will ${asset.name} get before ${shortDateYear(date)}?`,
            description: `Resolves on the highest ${asset.name} price printed on the CF Benchmarks Real-Time Index before the deadline, not on a closing price.`,
            eventTicker: `${asset.series}MAX-${tickerDate(date)}`,
          },
          closeTime: endOfMonth(anchor, [0, 1, 2, 4][i] ?? 1, 23, 59),
          markets: touch,
        },
        markets: withPriors(legs, ladderPriors(legs.length, rng)),
        exclusive: false,
        heat: asset.sym === 'BTC' ? 2.5 : 1.3,
      };
    });
  },
};

const MILESTONES: BinarySpec[] = [
  {
    id: 'eth-flippening',
    ticker: 'KXFLIP',
    prior: 0.04,
    title: (d) => `Ethereum market cap surpasses Bitcoin by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will Ethereum's market cap surpass Bitcoin's by ${longDate(d)}?`,
        `This market will resolve to "Yes" if the market capitalization of Ethereum (ETH) exceeds that of Bitcoin (BTC) at any point ` +
          `between market creation and ${longDate(d)}, 11:59 PM ET, according to CoinGecko. Otherwise, this market will resolve to "No".`,
      ),
    b: (d) =>
      same(
        `ETH flippening before ${shortDateYear(d)}?`,
        `If Ethereum's market capitalization is greater than Bitcoin's, as reported by CoinGecko, at any time before 11:59 PM ET on ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
    similar: (d) => ({
      b: same(
        `ETH market cap above BTC on ${shortDateYear(d)}?`,
        `If Ethereum's market capitalization is greater than Bitcoin's at 11:59 PM ET on ${shortDateYear(d)}, per CoinGecko, then the market resolves to Yes. Earlier crossings do not count.`,
      ),
    }),
  },
  {
    id: 'usdt-250b',
    ticker: 'KXUSDT',
    prior: 0.3,
    title: (d) => `Tether USDT market cap above $250 billion by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will Tether's USDT market cap exceed $250 billion by ${longDate(d)}?`,
        `This market will resolve to "Yes" if the circulating market capitalization of Tether (USDT) is reported above $250,000,000,000 ` +
          `by CoinMarketCap at any time before ${longDate(d)}, 11:59 PM ET. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `USDT supply above $250B by ${shortDateYear(d)}?`,
        `If the circulating supply of Tether's USDT stablecoin exceeds 250 billion, per CoinMarketCap, before 11:59 PM ET on ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
  },
  {
    id: 'btc-ath',
    ticker: 'KXBTCATH',
    prior: 0.35,
    heat: 1.8,
    title: (d) => `Bitcoin new all-time high by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will Bitcoin reach a new all-time high by ${longDate(d)}?`,
        `This market will resolve to "Yes" if any Binance BTC/USDT one-minute candle between market creation and ${longDate(d)}, 11:59 PM ET, ` +
          `has a "High" above the highest price ever previously recorded on that pair. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `New Bitcoin all-time high before ${shortDateYear(d)}?`,
        `If Bitcoin trades above its previous all-time high on the CF Benchmarks Real-Time Index before 11:59 PM ET on ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
    similar: (d) => ({
      b: same(
        `Bitcoin daily close at a record high by ${shortDateYear(d)}?`,
        `If Bitcoin's daily closing price (CF Benchmarks, 4 PM ET) sets a new record before ${shortDateYear(d)}, then the market resolves to Yes. Intraday highs do not count.`,
      ),
    }),
  },
  {
    id: 'ada-etf',
    ticker: 'KXADAETF',
    prior: 0.4,
    title: (d) => `Spot Cardano ETF trading in the US by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will a spot Cardano ETF begin trading in the U.S. by ${longDate(d)}?`,
        `This market will resolve to "Yes" if an exchange-traded fund holding spot Cardano (ADA) begins trading on a U.S. national securities ` +
          `exchange by ${longDate(d)}, 11:59 PM ET. SEC approval alone is not sufficient; shares must trade. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `Spot Cardano ETF trading in the US by ${shortDateYear(d)}?`,
        `If shares of a spot Cardano ETF trade on a US exchange before ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
    similar: (d) => ({
      b: same(
        `SEC approves a spot Cardano ETF by ${shortDateYear(d)}?`,
        `If the SEC approves (or lets take effect) a rule change or registration allowing a spot Cardano ETF before ${shortDateYear(d)}, then the market resolves to Yes. Trading need not have begun.`,
      ),
      ticker: 'KXADAETFAPP',
    }),
  },
  {
    id: 'strategy-sells-btc',
    ticker: 'KXMSTRSELL',
    prior: 0.12,
    title: (d) => `Strategy sells Bitcoin by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will Strategy (MicroStrategy) sell any Bitcoin by ${longDate(d)}?`,
        `This market will resolve to "Yes" if Strategy Inc. discloses, in an SEC filing or official announcement, the sale of any of its Bitcoin holdings ` +
          `between market creation and ${longDate(d)}. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `Strategy sells Bitcoin before ${shortDateYear(d)}?`,
        `If Strategy (formerly MicroStrategy) reports selling any bitcoin before ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
    prefer: 'venue_a',
  },
  {
    id: 'usdc-depeg',
    ticker: 'KXUSDCDEPEG',
    prior: 0.05,
    title: (d) => `USDC depegs below $0.98 by ${longDate(d)}`,
    a: (d) =>
      same(
        `Will USDC depeg below $0.98 by ${longDate(d)}?`,
        `This market will resolve to "Yes" if the USDC/USD price on Coinbase closes below $0.98 on any hourly candle before ${longDate(d)}, 11:59 PM ET. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `USDC below $0.98 before ${shortDateYear(d)}?`,
        `If an hourly close of USDC/USD on Coinbase is below 0.98 before ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
    prefer: 'venue_a',
  },
  {
    id: 'btc-dominance-60',
    ticker: 'KXBTCDOM',
    prior: 0.45,
    title: (d) => `Bitcoin dominance above 60% on ${longDate(d)}`,
    a: (d) =>
      same(
        `Will Bitcoin dominance be above 60% on ${longDate(d)}?`,
        `This market will resolve to "Yes" if Bitcoin's share of total crypto market capitalization, as shown by TradingView's BTC.D index, closes above 60% on ${longDate(d)}. Otherwise, "No".`,
      ),
    b: (d) =>
      same(
        `BTC dominance above 60% on ${shortDate(d)}?`,
        `If Bitcoin's market-cap dominance (TradingView BTC.D daily close) is above 60% on ${shortDateYear(d)}, then the market resolves to Yes.`,
      ),
  },
];

/** One-off crypto questions with a deadline at a month end. */
const cryptoMilestones: EventTemplate = {
  id: 'crypto-milestone',
  category: 'crypto',
  build({ anchor, rng }) {
    return rng
      .sample(MILESTONES, 5)
      .map((spec) =>
        binaryEvent('crypto-milestone', 'crypto', spec, endOfMonth(anchor, rng.pick([1, 2, 4, 7])), rng.int(45, 200)),
      );
  },
};

/** Crypto templates. */
export const CRYPTO_TEMPLATES: EventTemplate[] = [cryptoPrice, cryptoMilestones];
