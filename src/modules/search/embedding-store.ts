import { Prisma, type PrismaClient } from '../../db/generated/client';
import { toVectorLiteral } from './vector-math';

/** Which vectors a search compares with: those of one embedder. */
export interface VectorSpace {
  provider: string;
  model: string;
  dimension: number;
}

/** One event's vector as written. */
export interface EmbeddingRow {
  eventId: string;
  contentHash: string;
  values: number[];
}

/** A candidate from the database and the vector to re-score it with. */
export interface StoredVector {
  eventId: string;
  values: number[];
}

/** PostgreSQL array literal of doubles; sent as text so both adapters pass it the same way. */
function toArrayLiteral(v: readonly number[]): string {
  return `{${v.join(',')}}`;
}

/**
 * SQL over `EventEmbedding`. The `embedding` (pgvector) column exists only where
 * the extension does; `values` (float8[]) always does and is the source of truth.
 */
export class EmbeddingStore {
  private vectorColumn: Promise<boolean> | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    /** Whether the database has pgvector (the column is then checked once). */
    private readonly hasVector: boolean,
  ) {}

  /**
   * Whether pgvector search is possible: the extension AND the column (a server
   * that gained pgvector after the migration ran has the first without the second).
   */
  vectorSearchAvailable(): Promise<boolean> {
    if (!this.hasVector) return Promise.resolve(false);
    this.vectorColumn ??= this.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'EventEmbedding' AND column_name = 'embedding'`.then(
      (rows) => (rows[0]?.n ?? 0) > 0,
    );
    return this.vectorColumn;
  }

  /** Content hash of every stored vector, by event id. */
  async hashes(): Promise<Map<string, string>> {
    const rows = await this.prisma.eventEmbedding.findMany({ select: { eventId: true, contentHash: true } });
    return new Map(rows.map((r) => [r.eventId, r.contentHash]));
  }

  /** Inserts or replaces vectors, in one statement (callers batch). */
  async upsert(space: Omit<VectorSpace, 'dimension'>, rows: readonly EmbeddingRow[]): Promise<void> {
    if (rows.length === 0) return;
    const withVector = await this.vectorSearchAvailable();
    const tuples = rows.map((r) => {
      const base = Prisma.sql`${r.eventId}, ${space.provider}, ${space.model}, ${r.values.length}::int,
        ${r.contentHash}, ${toArrayLiteral(r.values)}::float8[], CURRENT_TIMESTAMP`;
      return withVector ? Prisma.sql`(${base}, ${toVectorLiteral(r.values)}::vector)` : Prisma.sql`(${base})`;
    });
    const columns = Prisma.raw(
      `"eventId", "provider", "model", "dimension", "contentHash", "values", ` +
        `"updatedAt"${withVector ? ', "embedding"' : ''}`,
    );
    const updates = Prisma.raw(
      ['provider', 'model', 'dimension', 'contentHash', 'values', 'updatedAt', ...(withVector ? ['embedding'] : [])]
        .map((c) => `"${c}" = EXCLUDED."${c}"`)
        .join(', '),
    );
    await this.prisma.$executeRaw`
      INSERT INTO "EventEmbedding" (${columns}) VALUES ${Prisma.join(tuples)}
      ON CONFLICT ("eventId") DO UPDATE SET ${updates}`;
  }

  /** Every vector of a space (the exact path scans them all in process). */
  async all(space: VectorSpace): Promise<StoredVector[]> {
    return this.prisma.eventEmbedding.findMany({
      where: { provider: space.provider, model: space.model, dimension: space.dimension },
      select: { eventId: true, values: true },
      orderBy: { eventId: 'asc' },
    });
  }

  /**
   * The `take` nearest vectors by pgvector cosine distance, at most
   * `maxDistance` away, nearest first; with their exact values for re-scoring.
   */
  async nearest(
    space: VectorSpace,
    query: readonly number[],
    take: number,
    maxDistance: number,
  ): Promise<StoredVector[]> {
    const q = toVectorLiteral(query);
    return this.prisma.$queryRaw<StoredVector[]>`
      SELECT "eventId", "values" FROM (
        SELECT "eventId", "values", "embedding" <=> ${q}::vector AS distance
        FROM "EventEmbedding"
        WHERE "provider" = ${space.provider} AND "model" = ${space.model} AND "dimension" = ${space.dimension}::int
          AND "embedding" IS NOT NULL
      ) AS scored
      WHERE distance <= ${maxDistance}::float8
      ORDER BY distance, "eventId"
      LIMIT ${take}::int`;
  }
}
