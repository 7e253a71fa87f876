import type { Prisma, PrismaClient } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { SignedCursor } from '../../http/signed-cursor';

/** The pagination envelope of every market-data list. */
export interface CursorPage<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
  totalCount: number;
}

export interface KeysetQuery<Row, Key extends string | number> {
  /** Names the list, so a cursor of one list is refused by another. */
  list: string;
  /** The list's filters with every key present (`null` when unset): the cursor is bound to them. */
  filters: Record<string, string | number | null>;
  cursor: string | undefined;
  limit: number;
  /** `limit + 1` rows after `after` in key order, and the filtered total, read together. */
  fetch(after: Key | undefined, take: number): Promise<[Row[], number]>;
  keyOf(row: Row): Key;
}

/**
 * A keyset page: the cursor is the last row's sort key, signed and bound to
 * the list and its filters, so it is stateless, reusable (the same cursor
 * gives the same page while the data stands still) and refused with 400 when
 * edited or sent with other filters.
 */
export async function keysetPage<Row, Key extends string | number>(
  cursors: SignedCursor,
  q: KeysetQuery<Row, Key>,
): Promise<CursorPage<Row>> {
  const binding = { list: q.list, ...q.filters };
  let after: Key | undefined;
  if (q.cursor !== undefined) {
    const position = cursors.decode<{ after: Key }>(q.cursor, binding);
    if (typeof position.after !== 'string' && typeof position.after !== 'number') {
      throw AppError.badRequest('cursor', 'is not a valid cursor');
    }
    after = position.after;
  }
  const [rows, totalCount] = await q.fetch(after, q.limit + 1);
  const hasMore = rows.length > q.limit;
  const data = rows.slice(0, q.limit);
  const last = data[data.length - 1];
  return {
    data,
    hasMore,
    nextCursor: hasMore && last !== undefined ? cursors.encode({ after: q.keyOf(last) }, binding) : null,
    totalCount,
  };
}

/** What {@link keysetPageById} needs of a Prisma model (a delegate such as `prisma.market`). */
export interface IdOrderedModel<Where> {
  findMany(args: { where: Where; orderBy: { id: 'asc' }; take: number }): Prisma.PrismaPromise<unknown>;
  count(args: { where: Where }): Prisma.PrismaPromise<number>;
}

/** The row type of a Prisma model. */
type RowOf<M extends IdOrderedModel<never>> = Awaited<ReturnType<M['findMany']>> extends (infer R)[] ? R : never;
/** The type of its rows' `id`. */
type IdOf<M extends IdOrderedModel<never>> = RowOf<M> extends { id: infer K extends string | number } ? K : never;

/**
 * A keyset page of a list keyed by its rows' `id`: the rows of `model` matching `where` after the
 * cursor's id in id order, and their total, read in one transaction (the total and the page agree).
 */
export function keysetPageById<M extends IdOrderedModel<Where>, Where extends object>(
  cursors: SignedCursor,
  prisma: PrismaClient,
  rows: { model: M; where: Where },
  q: Pick<KeysetQuery<RowOf<M>, IdOf<M>>, 'list' | 'filters' | 'cursor' | 'limit'>,
): Promise<CursorPage<RowOf<M>>> {
  const { model, where } = rows;
  return keysetPage<RowOf<M>, IdOf<M>>(cursors, {
    ...q,
    fetch: (after, take) =>
      prisma.$transaction([
        model.findMany({
          where: after === undefined ? where : ({ AND: [where, { id: { gt: after } }] } as Where),
          orderBy: { id: 'asc' },
          take,
        }),
        model.count({ where }),
      ]) as Promise<[RowOf<M>[], number]>,
    keyOf: (row) => (row as { id: IdOf<M> }).id,
  });
}

/** Maps a page's rows, keeping its envelope. */
export function mapPage<A, B>(page: CursorPage<A>, f: (a: A) => B): CursorPage<B> {
  return { ...page, data: page.data.map(f) };
}
