import type { Prisma, PrismaClient } from './generated/client';

/** An offset page: the `limit` rows after the first `offset`, with the count over all pages. */
export interface OffsetPage<T> {
  data: T[];
  limit: number;
  offset: number;
  total: number;
}

/** Which rows of the ordered list a page holds, as Prisma's `findMany` takes it. */
export interface PageWindow {
  skip: number;
  take: number;
}

/**
 * Reads an offset page: the rows of the window (the list's `findMany`, given `skip` and `take`)
 * and the count of every row matching its filter, in one transaction so the two agree; `view`
 * maps each row (with its index on the page).
 */
export async function readOffsetPage<Row, View>(
  prisma: PrismaClient,
  page: { limit: number; offset: number },
  read: (window: PageWindow) => [Prisma.PrismaPromise<Row[]>, Prisma.PrismaPromise<number>],
  view: (row: Row, index: number) => View,
): Promise<OffsetPage<View>> {
  const { limit, offset } = page;
  const [rows, total] = await prisma.$transaction(read({ skip: offset, take: limit }));
  return { data: rows.map((row, i) => view(row, i)), limit, offset, total };
}
