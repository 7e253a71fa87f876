import {
  addDays,
  endOfMonth,
  isoDay,
  longDate,
  monthDay,
  nthWeekday,
  shortDate,
  shortDateYear,
  tickerDate,
  utc,
} from './sim-dates';
import type { EventDraft, EventTemplate } from './sim-catalog.types';
import { fmtNum, ladderPriors, slugify, tickerNum } from './sim-catalog.types';
import { binaryEvent, type Leg, same, withPriors } from './sim-template-kit';

/** Recession in the coming calendar year; venue_b's alternative drops the NBER leg. */
const recession: EventTemplate = {
  id: 'recession',
  category: 'economics',
  build({ anchor, rng }) {
    const year = anchor.getUTCFullYear() + 1;
    const close = utc(year + 1, 1, 28, 23, 59);
    return [
      binaryEvent(
        'recession',
        'economics',
        {
          id: `us-${year}`,
          ticker: 'KXRECSSNBER',
          prior: 0.22 + rng.next() * 0.15,
          heat: 1.5,
          title: () => `US recession in ${year}`,
          a: () =>
            same(
              `US recession in ${year}?`,
              `This market will resolve to "Yes" if either of the following happens: the NBER publicly announces that a recession began in the US at any ` +
                `point in ${year}, or the BEA's advance estimates show two consecutive quarters of negative real GDP growth within ${year} (Q4 ${year - 1} ` +
                `through Q4 ${year}). It resolves "No" otherwise, at the latest on ${longDate(close)}.`,
            ),
          b: () =>
            same(
              `Recession in the US in ${year}?`,
              `If the NBER declares a US recession that started in ${year}, or two consecutive quarters of negative real GDP growth are reported for ${year}, ` +
                `then the market resolves to Yes.`,
            ),
          similar: () => ({
            b: same(
              `Two straight quarters of negative GDP in ${year}?`,
              `If the BEA's advance estimate of real GDP growth is negative for two consecutive quarters during ${year}, then the market resolves to Yes. An NBER declaration alone does not count.`,
            ),
            ticker: 'KXRECSSGDP',
          }),
        },
        close,
        rng.int(200, 320),
      ),
    ];
  },
};

/** Advance estimate of real GDP growth for the current quarter. */
const gdp: EventTemplate = {
  id: 'gdp-growth',
  category: 'economics',
  build({ anchor, rng }) {
    const q = Math.floor(anchor.getUTCMonth() / 3);
    const year = anchor.getUTCFullYear();
    const release = nthWeekday(year, q * 3 + 3, 4, -1, 13);
    const quarter = `Q${q + 1} ${year}`;
    const legs: Leg[] = [0, 1, 2, 3]
      .slice(rng.int(0, 1))
      .slice(0, 3)
      .map((th) => ({
        key: `t${th}`,
        label: `${th}.0%`,
        a: {
          title: `Will US real GDP growth in ${quarter} be above ${th}.0%?`,
          description: `This market will resolve to "Yes" if the BEA's advance estimate of ${quarter} real GDP growth (seasonally adjusted annual rate) is above ${th}.0%. Otherwise, "No".`,
        },
        b: {
          title: `${quarter.slice(0, 2)} GDP growth above ${th}.0%?`,
          description: `If the advance estimate of real GDP growth for ${quarter}, annualized, is above ${th}.0%, then the market resolves to Yes.`,
        },
        bTicker: `T${th}.0`,
      }));
    const title = `US GDP growth in ${quarter}`;
    const draft: EventDraft = {
      key: `gdp-growth:${year}q${q + 1}`,
      category: 'economics',
      title,
      slug: slugify(title),
      closeTime: release,
      listedDays: rng.int(60, 110),
      a: {
        title: `US GDP growth in ${quarter}?`,
        description: `Markets on the BEA advance estimate of ${quarter} real GDP growth, due ${longDate(release)}.`,
      },
      b: {
        title: `GDP growth in ${quarter}`,
        description: `How fast did the US economy grow in ${quarter}, per the advance estimate?`,
        eventTicker: `KXGDP-${tickerDate(release)}`,
      },
      markets: withPriors(legs, ladderPriors(legs.length, rng)),
      exclusive: false,
      prefer: 'venue_b',
      heat: 0.9,
    };
    return [draft];
  },
};

/** AAA national average gas price at a month end. */
const gas: EventTemplate = {
  id: 'gas-price',
  category: 'economics',
  build({ anchor, rng }) {
    return [1, 3].map((k): EventDraft => {
      const d = endOfMonth(anchor, k, 16, 0);
      const start = rng.int(0, 2);
      const ths = [2.9, 3.1, 3.3, 3.5, 3.7].slice(start, start + rng.int(2, 3));
      const legs: Leg[] = ths.map((th) => ({
        key: `t${tickerNum(th)}`,
        label: `$${th.toFixed(2)}`,
        a: {
          title: `Will the national average price of regular gas be above $${th.toFixed(2)} on ${monthDay(d)}?`,
          description: `This market will resolve to "Yes" if the AAA national average price for a gallon of regular gasoline, as shown on gasprices.aaa.com on ${longDate(d)}, is above $${th.toFixed(2)}. Otherwise, "No".`,
        },
        b: {
          title: `US gas prices above $${th.toFixed(2)} on ${shortDate(d)}?`,
          description: `If the AAA national average for regular gas is above $${th.toFixed(2)} on ${shortDateYear(d)}, then the market resolves to Yes.`,
        },
        bTicker: `T${th.toFixed(2)}`,
      }));
      const title = `US average gas price on ${longDate(d)}`;
      return {
        key: `gas-price:${isoDay(d)}`,
        category: 'economics',
        title,
        slug: slugify(title),
        closeTime: d,
        listedDays: rng.int(30, 60),
        a: {
          title: `US gas price on ${monthDay(d)}?`,
          description: `Markets on the AAA national average price of regular gasoline on ${longDate(d)}.`,
        },
        b: {
          title: `Gas prices on ${shortDateYear(d)}`,
          description: `Where will the national average price of regular gas be on ${shortDateYear(d)}?`,
          eventTicker: `KXAAAGASM-${tickerDate(d)}`,
        },
        similar: {
          b: {
            title: `Weekly EIA gas price for the week of ${shortDateYear(d)}`,
            description: `Resolves on the EIA weekly US regular retail gasoline price for the week containing ${shortDateYear(d)}.`,
            eventTicker: `KXEIAGAS-${tickerDate(d)}`,
          },
          closeTime: addDays(d, 6),
          markets: Object.fromEntries(
            ths.map((th) => [
              `t${tickerNum(th)}`,
              {
                title: `EIA weekly gas price above $${th.toFixed(2)} (week of ${shortDate(d)})?`,
                description: `If the EIA's weekly US regular gasoline retail price for the week that includes ${shortDateYear(d)} is above $${fmtNum(th)}, then the market resolves to Yes.`,
              },
            ]),
          ),
        },
        markets: withPriors(legs, ladderPriors(legs.length, rng)),
        exclusive: false,
        prefer: 'venue_b',
        heat: 0.7,
      };
    });
  },
};

/** More economics templates. */
export const MACRO_TEMPLATES: EventTemplate[] = [recession, gdp, gas];
