import { IsOptional, Max, MaxLength, Min } from 'class-validator';
import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';

/**
 * The three pagings of the schema, as type-graphql generic types: a function of the
 * item's object type returns an abstract page class, and each list names its own
 * page by extending it (`@ObjectType('FollowPage') class FollowPageType extends
 * OffsetPageType<FollowView>(FollowType) {}`). The paging arguments likewise take
 * each module's bounds from its `*.limits.ts`, which the REST routes read too.
 *
 * - numbered: `page`, `pageSize` → `data`, `page`, `pageSize`, `total`;
 * - offset: `limit`, `offset` → `data`, `limit`, `offset`, `total` (or `hasMore` where nothing counts the rows);
 * - cursor: `limit`, `cursor` → `data`, `nextCursor`, `hasMore` (and `totalCount` where counted).
 *
 * The abstract bases are never named in the schema: type-graphql 2 emits only the types a
 * resolver reaches, and those are the named subclasses.
 *
 * `TItem` is the rows' data shape (the view the services return), `item` their GraphQL object type.
 * Descriptions are parameters: the lists' schema text differs, and the schema is a contract.
 */

/** Field descriptions of a page type, by field name. */
export type PageDescriptions<F extends string> = Partial<Record<F, string>>;

/** Options of a page type. */
export interface PageTypeOptions<F extends string> {
  descriptions?: PageDescriptions<F>;
}

/** A page by number: `page` (from 1) of `pageSize` rows, with the count over all pages. */
export function NumberedPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'page' | 'pageSize' | 'total'> = {},
) {
  const d = options.descriptions ?? {};
  @ObjectType()
  abstract class NumberedPage {
    @Field(() => [item])
    data: TItem[];
    @Field(() => Int, { description: d.page })
    page: number;
    @Field(() => Int, { description: d.pageSize })
    pageSize: number;
    @Field(() => Int, { description: d.total })
    total: number;
  }
  return NumberedPage;
}

/** The `limit` rows after the first `offset`, with the count over all pages. */
export function OffsetPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'limit' | 'offset' | 'total'> = {},
) {
  const d = options.descriptions ?? {};
  @ObjectType()
  abstract class OffsetPage {
    @Field(() => [item])
    data: TItem[];
    @Field(() => Int, { description: d.limit })
    limit: number;
    @Field(() => Int, { description: d.offset })
    offset: number;
    @Field(() => Int, { description: d.total })
    total: number;
  }
  return OffsetPage;
}

/** An offset page of a list nothing counts (a venue's feed): `hasMore` instead of a total. */
export function UncountedOffsetPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'limit' | 'offset' | 'hasMore'> = {},
) {
  const d = options.descriptions ?? {};
  @ObjectType()
  abstract class UncountedOffsetPage {
    @Field(() => [item])
    data: TItem[];
    @Field(() => Int, { description: d.limit })
    limit: number;
    @Field(() => Int, { description: d.offset })
    offset: number;
    @Field({ description: d.hasMore })
    hasMore: boolean;
  }
  return UncountedOffsetPage;
}

/** A keyset page: the rows after the cursor, and the cursor of the next page (null on the last). */
export function CursorPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'nextCursor' | 'hasMore'> = {},
) {
  const d = options.descriptions ?? {};
  @ObjectType()
  abstract class CursorPage {
    @Field(() => [item])
    data: TItem[];
    @Field(() => String, { nullable: true, description: d.nextCursor })
    nextCursor: string | null;
    @Field({ description: d.hasMore })
    hasMore: boolean;
  }
  return CursorPage;
}

/** A keyset page with the count of the rows matching the filters, over all pages. */
export function CountedCursorPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'nextCursor' | 'hasMore' | 'totalCount'> = {},
) {
  const d = options.descriptions ?? {};
  @ObjectType()
  abstract class CountedCursorPage extends CursorPageType<TItem>(item, options) {
    @Field(() => Int, { description: d.totalCount })
    totalCount: number;
  }
  return CountedCursorPage;
}

/** An integer argument's bounds, as a module's `*.limits.ts` states them. */
export interface IntBounds {
  readonly min: number;
  readonly max: number;
  readonly default?: number;
}

/** Options of the paging arguments. */
export interface PagingArgsOptions<A extends string> {
  /** The arguments whose description states their range (`1..100`); default: all of them. */
  describe?: readonly A[];
  /**
   * Refuse a value out of range with the whole range (`must be an integer from 1 to 200`), as the
   * list's REST route words it; default: class-validator's words (`must not be greater than 200`).
   */
  rangeMessage?: boolean;
}

/** The type-graphql field and the class-validator bounds of one integer paging argument. */
function BoundedInt(bounds: IntBounds, defaultValue: number, describe: boolean, rangeMessage: boolean) {
  const message = rangeMessage ? { message: `must be an integer from ${bounds.min} to ${bounds.max}` } : undefined;
  const decorators = [
    Field(() => Int, { defaultValue, description: describe ? `${bounds.min}..${bounds.max}` : undefined }),
    Min(bounds.min, message),
    Max(bounds.max, message),
  ];
  return (target: object, property: string) => decorators.forEach((decorate) => decorate(target, property));
}

/** What the paging arguments extend when the list has no other arguments (type-graphql's mixin pattern). */
class NoArgs {}

/** Bounds of numbered paging. */
export interface NumberedPagingBounds {
  readonly page: IntBounds & { readonly default: number };
  readonly pageSize: IntBounds & { readonly default: number };
}

/** `page` and `pageSize` with the module's bounds, on top of `Base` (the list's other arguments) when given. */
export function NumberedPagingArgs<TBase extends ClassType = typeof NoArgs>(
  bounds: NumberedPagingBounds,
  options: PagingArgsOptions<'page' | 'pageSize'> = {},
  Base: TBase = NoArgs as TBase,
) {
  const { describe = ['page', 'pageSize'], rangeMessage = false } = options;
  @ArgsType()
  class NumberedPaging extends Base {
    @BoundedInt(bounds.page, bounds.page.default, describe.includes('page'), rangeMessage)
    page: number;

    @BoundedInt(bounds.pageSize, bounds.pageSize.default, describe.includes('pageSize'), rangeMessage)
    pageSize: number;
  }
  return NumberedPaging;
}

/** Bounds of offset paging; `offset` defaults to 0 (the first page) unless stated. */
export interface OffsetPagingBounds {
  readonly limit: IntBounds & { readonly default: number };
  readonly offset: IntBounds;
}

/** `limit` and `offset` with the module's bounds, on top of `Base` (the list's other arguments) when given. */
export function OffsetPagingArgs<TBase extends ClassType = typeof NoArgs>(
  bounds: OffsetPagingBounds,
  options: PagingArgsOptions<'limit' | 'offset'> = {},
  Base: TBase = NoArgs as TBase,
) {
  const { describe = ['limit', 'offset'], rangeMessage = false } = options;
  @ArgsType()
  class OffsetPaging extends Base {
    @BoundedInt(bounds.limit, bounds.limit.default, describe.includes('limit'), rangeMessage)
    limit: number;

    @BoundedInt(bounds.offset, bounds.offset.default ?? 0, describe.includes('offset'), rangeMessage)
    offset: number;
  }
  return OffsetPaging;
}

/** Bounds of cursor paging: the page size and the longest cursor accepted. */
export interface CursorPagingBounds {
  readonly limit: IntBounds & { readonly default: number };
  readonly cursor: { readonly max: number };
}

/** Options of cursor paging. */
export interface CursorPagingArgsOptions extends PagingArgsOptions<'limit'> {
  /** Default: 'The `nextCursor` of the previous page (same filters).' */
  cursorDescription?: string;
}

/** `limit` and `cursor` with the module's bounds, on top of `Base` (the list's other arguments) when given. */
export function CursorPagingArgs<TBase extends ClassType = typeof NoArgs>(
  bounds: CursorPagingBounds,
  options: CursorPagingArgsOptions = {},
  Base: TBase = NoArgs as TBase,
) {
  const {
    describe = ['limit'],
    rangeMessage = false,
    cursorDescription = 'The `nextCursor` of the previous page (same filters).',
  } = options;
  @ArgsType()
  class CursorPaging extends Base {
    @BoundedInt(bounds.limit, bounds.limit.default, describe.includes('limit'), rangeMessage)
    limit: number;

    @Field(() => String, { nullable: true, description: cursorDescription })
    @IsOptional()
    @MaxLength(bounds.cursor.max)
    cursor?: string;
  }
  return CursorPaging;
}
