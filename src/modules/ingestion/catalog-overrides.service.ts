import type { PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { Venue } from '../../venues/venue.models';
import type { CatalogJob } from './catalog-job';
import { toCatalogDecisionView, type CatalogDecisionKind, type CatalogDecisionView } from './ingestion.models';

export interface DecisionListQuery {
  /** Decisions naming this venue event, on either side. */
  venueEventId?: string;
  pinned?: boolean;
  limit: number;
  offset: number;
}

export interface DecisionPage {
  data: CatalogDecisionView[];
  limit: number;
  offset: number;
  total: number;
}

/** What a core event holds: the venue events its markets come from. */
interface Holding {
  venue: Venue;
  venueEventId: string;
}

/**
 * Administrators' overrides of the catalog job's matching: merge two core
 * events, split a venue event out of its merged core event, pin a decision.
 * Each is a pinned decision on a (venue_a event, venue_b event) pair, which
 * every later sync applies whatever the matcher says; merge and split sync
 * at once so the catalog shows them.
 */
export class CatalogOverridesService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly job: CatalogJob,
    private readonly onSyncError: (err: unknown) => void = () => undefined,
  ) {}

  async list(q: DecisionListQuery): Promise<DecisionPage> {
    const where = {
      ...(q.venueEventId !== undefined && {
        OR: [{ venueAEventId: q.venueEventId }, { venueBEventId: q.venueEventId }],
      }),
      ...(q.pinned !== undefined && { pinned: q.pinned }),
    };
    const [rows, total] = await Promise.all([
      this.prisma.catalogDecision.findMany({ where, orderBy: { id: 'asc' }, take: q.limit, skip: q.offset }),
      this.prisma.catalogDecision.count({ where }),
    ]);
    return { data: rows.map(toCatalogDecisionView), limit: q.limit, offset: q.offset, total };
  }

  /** One core event for two core events that each hold one venue event, one per venue. */
  async merge(eventId: string, otherEventId: string, note?: string): Promise<CatalogDecisionView> {
    this.requireMatching();
    const [one, other] = await Promise.all([
      this.holding(eventId, 'eventId'),
      this.holding(otherEventId, 'otherEventId'),
    ]);
    if (one.length !== 1 || other.length !== 1) {
      throw AppError.conflict('both events must hold a single venue event: split a merged event first');
    }
    const [x, y] = [one[0], other[0]];
    if (x.venue === y.venue)
      throw AppError.conflict(`both events are on ${x.venue}: a merge joins one event of each venue`);
    const a = x.venue === 'venue_a' ? x : y;
    const b = x.venue === 'venue_a' ? y : x;
    // The newest override wins: other pinned merges of either event would contradict it.
    await this.prisma.catalogDecision.deleteMany({
      where: {
        pinned: true,
        decision: 'merge',
        OR: [{ venueAEventId: a.venueEventId }, { venueBEventId: b.venueEventId }],
        NOT: { venueAEventId: a.venueEventId, venueBEventId: b.venueEventId },
      },
    });
    return this.pinAndSync(a.venueEventId, b.venueEventId, 'merge', `Merged by an administrator${suffix(note)}`);
  }

  /** The venue event gets a core event of its own again, apart from its match on the other venue. */
  async split(venue: Venue, venueEventId: string, note?: string): Promise<CatalogDecisionView> {
    this.requireMatching();
    const market = await this.prisma.market.findFirst({
      where: { venue, venueEventId },
      select: { coreEventId: true },
    });
    if (!market) throw AppError.notFound(`${venue} event ${venueEventId}`);
    const partners = (await this.holdingOf(market.coreEventId)).filter((h) => h.venue !== venue);
    if (partners.length === 0)
      throw AppError.conflict(`${venue} event ${venueEventId} is not merged with another event`);
    const other = partners[0].venueEventId;
    const [a, b] = venue === 'venue_a' ? [venueEventId, other] : [other, venueEventId];
    return this.pinAndSync(a, b, 'separate', `Split by an administrator${suffix(note)}`);
  }

  /** Keeps a decision as it is: later syncs apply it and the matcher no longer revisits it. */
  async pin(venueAEventId: string, venueBEventId: string): Promise<CatalogDecisionView> {
    const where = { venueAEventId_venueBEventId: { venueAEventId, venueBEventId } };
    const row = await this.prisma.catalogDecision.findUnique({ where });
    if (!row) throw AppError.notFound(`catalog decision for ${venueAEventId} and ${venueBEventId}`);
    return toCatalogDecisionView(await this.prisma.catalogDecision.update({ where, data: { pinned: true } }));
  }

  private requireMatching(): void {
    if (!this.job.matching) {
      throw AppError.conflict("the catalog follows the simulated world's own grouping: overrides need a live venue");
    }
  }

  private async pinAndSync(
    venueAEventId: string,
    venueBEventId: string,
    decision: CatalogDecisionKind,
    reason: string,
  ): Promise<CatalogDecisionView> {
    const where = { venueAEventId_venueBEventId: { venueAEventId, venueBEventId } };
    const data = { decision, origin: 'admin' as const, pinned: true, reason };
    await this.prisma.catalogDecision.upsert({
      where,
      create: { venueAEventId, venueBEventId, similarity: 0, ...data },
      update: data,
    });
    // The pin is stored: a sync that fails now (a venue down) applies it on the next run.
    await this.job.run().catch(this.onSyncError);
    return toCatalogDecisionView(await this.prisma.catalogDecision.findUniqueOrThrow({ where }));
  }

  private async holding(coreEventId: string, field: string): Promise<Holding[]> {
    const held = await this.holdingOf(coreEventId);
    if (held.length === 0) {
      const exists = await this.prisma.coreEvent.count({ where: { id: coreEventId } });
      if (exists === 0) throw AppError.notFound(`event ${coreEventId}`);
      throw AppError.badRequest(field, 'the event has no markets');
    }
    return held;
  }

  private async holdingOf(coreEventId: string): Promise<Holding[]> {
    return this.prisma.market.findMany({
      where: { coreEventId },
      distinct: ['venue', 'venueEventId'],
      select: { venue: true, venueEventId: true },
      orderBy: [{ venue: 'asc' }, { venueEventId: 'asc' }],
    });
  }
}

function suffix(note: string | undefined): string {
  return note ? `: ${note}` : '';
}
