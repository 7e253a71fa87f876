import { IsOptional, Max, MaxLength, Min } from 'class-validator';
import { GraphQLBoolean, GraphQLString, type GraphQLScalarType } from 'graphql';
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

/** Every field a page may carry besides `data`, with its value type. */
interface PageFields {
  page: number;
  pageSize: number;
  limit: number;
  offset: number;
  total: number;
  totalCount: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** The GraphQL type of each page field: the same name means the same type in every paging. */
const PAGE_FIELD_TYPES: { readonly [F in keyof PageFields]: { type: () => GraphQLScalarType; nullable?: true } } = {
  page: { type: () => Int },
  pageSize: { type: () => Int },
  limit: { type: () => Int },
  offset: { type: () => Int },
  total: { type: () => Int },
  totalCount: { type: () => Int },
  hasMore: { type: () => GraphQLBoolean },
  nextCursor: { type: () => GraphQLString, nullable: true },
};

/** A page of `TItem` rows: `data`, then the named fields in order. */
export type Page<TItem extends object, F extends keyof PageFields> = { data: TItem[] } & Pick<PageFields, F>;

/**
 * The abstract page class of one paging: `data` (a list of `item`) and the given fields, each
 * described as the list's options say. The fields are declared from the table above rather than
 * written out per paging, so that a field means the same in every paging.
 */
function pageType<TItem extends object, F extends keyof PageFields>(
  item: ClassType,
  fields: readonly F[],
  options: PageTypeOptions<F>,
): abstract new () => Page<TItem, F> {
  const d: PageDescriptions<F> = options.descriptions ?? {};
  abstract class PageBase {}
  Field(() => [item])(PageBase.prototype, 'data');
  for (const name of fields) {
    const { type, nullable } = PAGE_FIELD_TYPES[name];
    Field(type, { nullable, description: d[name] })(PageBase.prototype, name);
  }
  ObjectType()(PageBase);
  return PageBase as abstract new () => Page<TItem, F>;
}

/** A page by number: `page` (from 1) of `pageSize` rows, with the count over all pages. */
export function NumberedPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'page' | 'pageSize' | 'total'> = {},
) {
  return pageType<TItem, 'page' | 'pageSize' | 'total'>(item, ['page', 'pageSize', 'total'], options);
}

/** The `limit` rows after the first `offset`, with the count over all pages. */
export function OffsetPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'limit' | 'offset' | 'total'> = {},
) {
  return pageType<TItem, 'limit' | 'offset' | 'total'>(item, ['limit', 'offset', 'total'], options);
}

/** An offset page of a list nothing counts (a venue's feed): `hasMore` instead of a total. */
export function UncountedOffsetPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'limit' | 'offset' | 'hasMore'> = {},
) {
  return pageType<TItem, 'limit' | 'offset' | 'hasMore'>(item, ['limit', 'offset', 'hasMore'], options);
}

/** A keyset page: the rows after the cursor, and the cursor of the next page (null on the last). */
export function CursorPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'nextCursor' | 'hasMore'> = {},
) {
  return pageType<TItem, 'nextCursor' | 'hasMore'>(item, ['nextCursor', 'hasMore'], options);
}

/** A keyset page with the count of the rows matching the filters, over all pages. */
export function CountedCursorPageType<TItem extends object>(
  item: ClassType,
  options: PageTypeOptions<'nextCursor' | 'hasMore' | 'totalCount'> = {},
) {
  return pageType<TItem, 'nextCursor' | 'hasMore' | 'totalCount'>(
    item,
    ['nextCursor', 'hasMore', 'totalCount'],
    options,
  );
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

/**
 * The type-graphql field and the class-validator bounds of one integer paging argument; it
 * defaults to the bound's default, else to 0 (the first offset).
 */
function BoundedInt(bounds: IntBounds, describe: boolean, rangeMessage: boolean) {
  const message = rangeMessage ? { message: `must be an integer from ${bounds.min} to ${bounds.max}` } : undefined;
  const decorators = [
    Field(() => Int, {
      defaultValue: bounds.default ?? 0,
      description: describe ? `${bounds.min}..${bounds.max}` : undefined,
    }),
    Min(bounds.min, message),
    Max(bounds.max, message),
  ];
  return (target: object, property: string) => decorators.forEach((decorate) => decorate(target, property));
}

/** What argument mixins (paging here, and others') extend when the list has no other arguments. */
export class NoArgs {}

/**
 * `Base` with the named integer arguments, each bounded by its entry of `bounds` (a module's
 * `*.limits.ts` object, which holds other bounds too).
 */
function IntPagingArgs<TBase extends ClassType, A extends string>(
  Base: TBase,
  bounds: Readonly<Record<A, IntBounds>>,
  names: readonly A[],
  options: PagingArgsOptions<A>,
) {
  const { describe = names, rangeMessage = false } = options;
  @ArgsType()
  class IntPaging extends Base {}
  for (const name of names) {
    BoundedInt(bounds[name], describe.includes(name), rangeMessage)(IntPaging.prototype, name);
  }
  return IntPaging as TBase & ClassType<Record<A, number>>;
}

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
  return IntPagingArgs(Base, bounds, ['page', 'pageSize'], options);
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
  return IntPagingArgs(Base, bounds, ['limit', 'offset'], options);
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
  const { cursorDescription = 'The `nextCursor` of the previous page (same filters).' } = options;
  @ArgsType()
  class CursorPaging extends IntPagingArgs(Base, bounds, ['limit'], options) {
    @Field(() => String, { nullable: true, description: cursorDescription })
    @IsOptional()
    @MaxLength(bounds.cursor.max)
    cursor?: string;
  }
  return CursorPaging;
}
