import type { MarketStatus, SourceType, Venue } from '../venue.models';
import { hashString, Prng, toUnit } from './prng';
import type { EventDraft, EventTemplate, MarketDraft, Wording } from './sim-catalog.types';
import { slugify } from './sim-catalog.types';
import { logit, type PriceProcess } from './sim-price';
import { CRYPTO_TEMPLATES } from './sim-templates-crypto.data';
import { CULTURE_TEMPLATES } from './sim-templates-culture.data';
import { ECONOMICS_TEMPLATES } from './sim-templates-economics.data';
import { MACRO_TEMPLATES } from './sim-templates-macro.data';
import { POLITICS_TEMPLATES } from './sim-templates-politics.data';
import { SCIENCE_TEMPLATES } from './sim-templates-science.data';
import { SPORTS_TEMPLATES } from './sim-templates-sports.data';
import { TECH_TEMPLATES } from './sim-templates-tech.data';
import type { WorldKeys } from './sim-keys';
import type { WorldCoreEvent, WorldCoreMarket } from './sim-world.types';

const TEMPLATES: EventTemplate[] = [
  ...POLITICS_TEMPLATES,
  ...CRYPTO_TEMPLATES,
  ...SPORTS_TEMPLATES,
  ...ECONOMICS_TEMPLATES,
  ...MACRO_TEMPLATES,
  ...TECH_TEMPLATES,
  ...SCIENCE_TEMPLATES,
  ...CULTURE_TEMPLATES,
];

/** Fewest events of each source type; the catalog is rebalanced to meet it. */
const MIN_PER_SOURCE_TYPE = 8;

/** Everything the simulator needs about one venue market; static for the world's life. */
export interface SimMarket {
  venue: Venue;
  venueMarketId: string;
  venueEventId: string;
  coreEventId: string;
  title: string;
  description: string;
  slug: string;
  status: MarketStatus;
  endDate: Date;
  /** Price increment: 0.001 on venue_a, 0.01 on venue_b. */
  tick: number;
  /** Seed of this venue market's own streams (book, trades, holders), from the world's keys. */
  seed: number;
  process: PriceProcess;
  /** Unix seconds: first moment with prices and trades. */
  listedAt: number;
  /** Unix seconds: trading stops here (the market's end date). */
  tradingEnd: number;
  /** Mean public trades per hour and mean trade size (contracts). */
  tradesPerHour: number;
  meanSize: number;
}

/** A market's status at `nowSec`: an open market whose close time has passed reads as closed. */
export function statusAt(m: SimMarket, nowSec: number): MarketStatus {
  return m.status === 'active' && nowSec >= m.tradingEnd ? 'closed' : m.status;
}

/** A venue event with its markets. */
export interface SimEvent {
  venue: Venue;
  venueEventId: string;
  title: string;
  description: string;
  category: string;
  closeTime: Date;
  markets: SimMarket[];
}

/** The whole static world: core events plus each venue's listing. */
export interface SimCatalog {
  coreEvents: WorldCoreEvent[];
  events: Record<Venue, SimEvent[]>;
  markets: Record<Venue, Map<string, SimMarket>>;
}

/** Hands out unique strings, suffixing repeats with -2, -3, ... */
class UniqueNames {
  private readonly used = new Set<string>();
  take(base: string): string {
    let name = base;
    for (let n = 2; this.used.has(name); n++) name = `${base}-${n}`;
    this.used.add(name);
    return name;
  }
  /** Claims `name` if free. */
  tryTake(name: string): boolean {
    if (this.used.has(name)) return false;
    this.used.add(name);
    return true;
  }
}

function pickSourceTypes(drafts: EventDraft[], rng: Prng): SourceType[] {
  const types = drafts.map((d): SourceType => {
    const u = rng.next();
    if (d.prefer) {
      if (u < 0.45) return d.prefer === 'venue_a' ? 'venue_a_only' : 'venue_b_only';
      return u < 0.95 ? 'matched' : d.prefer === 'venue_a' ? 'venue_b_only' : 'venue_a_only';
    }
    return u < 0.68 ? 'matched' : u < 0.84 ? 'venue_a_only' : 'venue_b_only';
  });
  // Guarantee every source type is well represented whatever the seed.
  for (const want of ['venue_a_only', 'venue_b_only'] as const) {
    for (let i = types.length - 1; i >= 0 && types.filter((t) => t === want).length < MIN_PER_SOURCE_TYPE; i--) {
      if (types[i] === 'matched' && rng.chance(0.5)) types[i] = want;
    }
  }
  return types;
}

/**
 * Resolution of each market of a decided event: one winner among candidates; one shared draw for a ladder, so
 * outcomes stay monotone across thresholds.
 */
function outcomes(draft: EventDraft, rng: Prng): ('yes' | 'no')[] {
  if (!draft.exclusive) {
    const u = rng.next();
    return draft.markets.map((m) => (u < m.prior ? 'yes' : 'no'));
  }
  const total = draft.markets.reduce((s, m) => s + m.prior, 0);
  let u = rng.next() * Math.max(1, total);
  const winner = draft.markets.findIndex((m) => (u -= m.prior) < 0);
  return draft.markets.map((_, i) => (i === winner ? 'yes' : 'no'));
}

interface Names {
  aEventIds: UniqueNames;
  aSlugs: UniqueNames;
  bEvents: UniqueNames;
  bMarkets: UniqueNames;
  coreSlugs: UniqueNames;
}

/**
 * Builds the deterministic catalog of the world keyed by `keys`, laying dates out from `anchor`
 * and deciding statuses at `nowMs`.
 */
export function buildCatalog(keys: WorldKeys, anchor: Date, nowMs: number): SimCatalog {
  const drafts: EventDraft[] = [];
  const seen = new Set<string>();
  for (const t of TEMPLATES) {
    // One generator per template so templates stay independent of each other's draws.
    for (const d of t.build({ anchor, rng: new Prng(keys.seed(t.id)) })) {
      if (!seen.has(d.key)) {
        seen.add(d.key);
        drafts.push(d);
      }
    }
  }
  const rng = new Prng(keys.seed('catalog'));
  const types = pickSourceTypes(drafts, rng);
  const names: Names = {
    aEventIds: new UniqueNames(),
    aSlugs: new UniqueNames(),
    bEvents: new UniqueNames(),
    bMarkets: new UniqueNames(),
    coreSlugs: new UniqueNames(),
  };
  const catalog: SimCatalog = {
    coreEvents: [],
    events: { venue_a: [], venue_b: [] },
    markets: { venue_a: new Map(), venue_b: new Map() },
  };
  const anchorS = anchor.getTime() / 1000;
  drafts.forEach((draft, i) => {
    const sourceType = types[i] ?? 'matched';
    const similar =
      sourceType === 'matched' && draft.similar !== undefined && rng.chance(0.45) ? draft.similar : undefined;
    const coreId = `evt_${keys.hex(draft.key, 12)}`;
    const decided = outcomes(draft, rng);
    const settled = rng.chance(0.7);
    const vol = 0.7 + rng.next() * 0.6;
    const coreMarkets: WorldCoreMarket[] = draft.markets.map((m) => ({
      key: m.key,
      label: m.label,
      venueMarketIds: {},
    }));
    const venueEventIds: Partial<Record<Venue, string>> = {};
    const venues: Venue[] =
      sourceType === 'matched' ? ['venue_a', 'venue_b'] : sourceType === 'venue_a_only' ? ['venue_a'] : ['venue_b'];
    for (const venue of venues) {
      const closeTime = venue === 'venue_b' && similar ? similar.closeTime : draft.closeTime;
      const closeS = closeTime.getTime() / 1000;
      const past = closeTime.getTime() <= nowMs;
      const status: MarketStatus = past ? (settled ? 'resolved' : 'closed') : 'active';
      const ev = venueEvent(venue, draft, similar, keys, names, closeTime);
      const listedAt = Math.floor(Math.min(closeS - draft.listedDays * 86_400, anchorS - 3 * 86_400) / 60) * 60;
      draft.markets.forEach((m, j) => {
        const wording = venue === 'venue_a' ? m.a : (similar?.markets[m.key] ?? m.b);
        const id = marketId(venue, ev.venueEventId, draft, m, keys, names);
        const h = keys.seed(`${venue}|${id}`);
        const market: SimMarket = {
          venue,
          venueMarketId: id,
          venueEventId: ev.venueEventId,
          coreEventId: coreId,
          title: wording.title,
          description: wording.description,
          slug:
            venue === 'venue_a'
              ? names.aSlugs.take(slugify(wording.title))
              : id.toLowerCase().replace(/[^a-z0-9-]/g, '-'),
          status,
          endDate: closeTime,
          tick: venue === 'venue_a' ? 0.001 : 0.01,
          seed: h,
          process: {
            seed: keys.seed(`u|${draft.key}|${m.key}`),
            basisSeed: h,
            baseLogit: logit(m.prior),
            vol,
            basisOffset: (toUnit(hashString('basis', h)) - 0.5) * 0.16,
            closeAt: closeS,
            outcome: past ? (decided[j] ?? 'no') : null,
            settled,
          },
          listedAt,
          tradingEnd: closeS,
          tradesPerHour: draft.heat * (venue === 'venue_a' ? 7 : 5) * (0.4 + toUnit(hashString('tph', h)) * 1.2),
          meanSize: (venue === 'venue_a' ? 45 : 30) * Math.sqrt(draft.heat),
        };
        ev.markets.push(market);
        catalog.markets[venue].set(id, market);
        const cm = coreMarkets[j];
        if (cm) cm.venueMarketIds[venue] = id;
      });
      venueEventIds[venue] = ev.venueEventId;
      catalog.events[venue].push(ev);
    }
    const primary: Wording = sourceType === 'venue_b_only' ? draft.b : draft.a;
    catalog.coreEvents.push({
      id: coreId,
      slug: names.coreSlugs.take(draft.slug),
      title: draft.title,
      description: primary.description,
      category: draft.category,
      sourceType,
      closeTime: draft.closeTime,
      venueEventIds,
      matchKind: sourceType !== 'matched' ? null : similar ? 'similar' : 'exact_match',
      markets: coreMarkets,
    });
  });
  mixDecidedStatuses(catalog);
  return catalog;
}

/**
 * Random draws may leave every past event in one state; flip one so the
 * catalog always shows both a `closed` (awaiting resolution) and a `resolved` event.
 */
function mixDecidedStatuses(catalog: SimCatalog): void {
  const past = [...catalog.events.venue_a, ...catalog.events.venue_b]
    .filter((e) => e.markets[0]?.status !== 'active')
    .sort((x, y) => x.closeTime.getTime() - y.closeTime.getTime() || x.venueEventId.localeCompare(y.venueEventId));
  if (past.length < 2) return;
  const has = (s: MarketStatus) => past.some((e) => e.markets[0]?.status === s);
  const flip = (core: string, status: MarketStatus) => {
    for (const e of past) {
      if (e.markets[0]?.coreEventId !== core) continue;
      for (const m of e.markets) {
        m.status = status;
        m.process.settled = status === 'resolved';
      }
    }
  };
  const newest = past[past.length - 1]?.markets[0]?.coreEventId;
  const oldest = past[0]?.markets[0]?.coreEventId;
  if (!has('closed') && newest) flip(newest, 'closed');
  else if (!has('resolved') && oldest) flip(oldest, 'resolved');
}

function venueEvent(
  venue: Venue,
  draft: EventDraft,
  similar: EventDraft['similar'],
  keys: WorldKeys,
  names: Names,
  closeTime: Date,
): SimEvent {
  if (venue === 'venue_a') {
    let n = 10_000 + (keys.seed(`a|${draft.key}`) % 80_000);
    let id = String(n);
    // Numeric ids like the venue's own; probe forward on the rare collision.
    while (!names.aEventIds.tryTake(id)) id = String(++n);
    return {
      venue,
      venueEventId: id,
      title: draft.a.title,
      description: draft.a.description,
      category: draft.category,
      closeTime,
      markets: [],
    };
  }
  const b = similar?.b ?? draft.b;
  return {
    venue,
    venueEventId: names.bEvents.take(b.eventTicker),
    title: b.title,
    description: b.description,
    category: draft.category,
    closeTime,
    markets: [],
  };
}

function marketId(
  venue: Venue,
  eventId: string,
  draft: EventDraft,
  m: MarketDraft,
  keys: WorldKeys,
  names: Names,
): string {
  if (venue === 'venue_a') return `0x${keys.hex(`a|${draft.key}|${m.key}`, 64)}`;
  return names.bMarkets.take(m.bTicker ? `${eventId}-${m.bTicker}` : eventId);
}
