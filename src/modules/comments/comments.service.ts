import { randomUUID } from 'node:crypto';
import type { Prisma, PrismaClient } from '../../db/generated/client';
import { readOffsetPage, type OffsetPage } from '../../db/offset-page';
import { AppError } from '../../errors/app-error';
import type { NewNotification } from '../notifications/notifications.service';
import type { CommentSort } from './comments.limits';

/** What a comment is attached to: an event (by id) or a trade (`venue:venueTradeId`, or `fill:<id>`). */
export type CommentTarget = { eventId: string } | { tradeId: string };

export interface CommentView {
  id: string;
  eventId: string | null;
  tradeId: string | null;
  parentId: string | null;
  authorId: string;
  body: string;
  likeCount: number;
  replyCount: number;
  createdAt: Date;
}

export type CommentPage = OffsetPage<CommentView>;

export interface LikeState {
  commentId: string;
  liked: boolean;
  likeCount: number;
}

/** The columns of a comment row that make its view (a `select` returning a {@link CommentView}). */
export const COMMENT_VIEW_SELECT = {
  id: true,
  eventId: true,
  tradeId: true,
  parentId: true,
  authorId: true,
  body: true,
  likeCount: true,
  replyCount: true,
  createdAt: true,
} as const;

/**
 * Comments on events and trades, one level of replies, likes. Like counts are
 * kept on the comment and changed only in the transaction that inserts or
 * deletes the (comment, user) like row, so they stay exact under concurrency.
 */
export class CommentsService {
  /** @param notify told about replies and likes (the notifications service); failures are the caller's to log. */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly notify: (items: NewNotification[]) => Promise<void> = async () => undefined,
  ) {}

  /** Resolves an event slug or id (404 when unknown). */
  async eventTarget(ref: string): Promise<CommentTarget> {
    const e = await this.prisma.coreEvent.findFirst({
      where: { OR: [{ id: ref }, { slug: ref }] },
      select: { id: true },
    });
    if (!e) throw AppError.notFound(`event ${ref}`);
    return { eventId: e.id };
  }

  /**
   * Resolves a trade id the service shows to the thread it names (404 for an id it never showed):
   *
   * - `venue:venueTradeId`: a stored trade (the live stream, trader and event trades) or one a
   *   market's trades page listed from the venue's history (`ShownTrade`);
   * - `trade:<id>` (portfolio history, a linked wallet's on-chain trade): the stored trade,
   *   answered as its `venue:venueTradeId`, so both ids show one thread;
   * - `fill:<id>` (portfolio history, a fill of an order through the service): kept as it is.
   */
  async tradeTarget(tradeId: string): Promise<CommentTarget> {
    const own = /^(fill|trade):(.+)$/.exec(tradeId);
    if (own?.[1] === 'fill') {
      const f = await this.prisma.fill.findUnique({ where: { id: own[2] }, select: { id: true } });
      if (!f) throw AppError.notFound(`trade ${tradeId}`);
      return { tradeId };
    }
    if (own?.[1] === 'trade') {
      const t = await this.prisma.trade.findUnique({
        where: { id: own[2] },
        select: { venue: true, venueTradeId: true },
      });
      if (!t) throw AppError.notFound(`trade ${tradeId}`);
      return { tradeId: `${t.venue}:${t.venueTradeId}` };
    }
    const [venue, venueTradeId] = splitTradeId(tradeId);
    const key = { venue_venueTradeId: { venue, venueTradeId } };
    const [stored, shown] = await Promise.all([
      this.prisma.trade.findUnique({ where: key, select: { id: true } }),
      this.prisma.shownTrade.findUnique({ where: key, select: { venue: true } }),
    ]);
    if (!stored && !shown) throw AppError.notFound(`trade ${tradeId}`);
    return { tradeId };
  }

  /** Top-level comments of a target; `top` orders by likes, then newest. */
  async list(target: CommentTarget, sort: CommentSort, limit: number, offset: number): Promise<CommentPage> {
    const where: Prisma.CommentWhereInput = { ...target, parentId: null };
    const orderBy: Prisma.CommentOrderByWithRelationInput[] =
      sort === 'top'
        ? [{ likeCount: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }]
        : [{ createdAt: 'desc' }, { id: 'asc' }];
    return this.page(where, orderBy, limit, offset);
  }

  /** Replies of a comment, oldest first. */
  async replies(commentId: string, limit: number, offset: number): Promise<CommentPage> {
    await this.require(commentId);
    return this.page({ parentId: commentId }, [{ createdAt: 'asc' }, { id: 'asc' }], limit, offset);
  }

  private page(
    where: Prisma.CommentWhereInput,
    orderBy: Prisma.CommentOrderByWithRelationInput[],
    limit: number,
    offset: number,
  ): Promise<CommentPage> {
    return readOffsetPage(
      this.prisma,
      { limit, offset },
      (window) => [
        this.prisma.comment.findMany({ where, orderBy, select: COMMENT_VIEW_SELECT, ...window }),
        this.prisma.comment.count({ where }),
      ],
      (c) => c,
    );
  }

  /**
   * Creates a comment; with a parent it is a reply. A reply to a reply joins
   * the thread's root, so threads stay one level deep.
   */
  async create(authorId: string, target: CommentTarget, body: string, parentId?: string): Promise<CommentView> {
    const text = body.trim();
    if (text.length === 0) throw AppError.badRequest('body', 'must not be blank');
    let repliedTo: string | null = null;
    const created = await this.prisma.$transaction(async (tx) => {
      let rootId: string | null = null;
      if (parentId !== undefined) {
        const parent = await tx.comment.findUnique({
          where: { id: parentId },
          select: { id: true, parentId: true, eventId: true, tradeId: true, authorId: true },
        });
        const sameTarget =
          parent && ('eventId' in target ? parent.eventId === target.eventId : parent.tradeId === target.tradeId);
        if (!parent || !sameTarget) throw AppError.notFound(`parent comment ${parentId}`);
        rootId = parent.parentId ?? parent.id;
        repliedTo = parent.authorId;
        await tx.comment.update({ where: { id: rootId }, data: { replyCount: { increment: 1 } } });
      }
      return tx.comment.create({
        data: { id: randomUUID(), ...target, parentId: rootId, authorId, body: text },
        select: COMMENT_VIEW_SELECT,
      });
    });
    if (repliedTo !== null && repliedTo !== authorId) {
      await this.notify([
        {
          userId: repliedTo,
          kind: 'comment_reply',
          title: 'New reply',
          body: text.length > 140 ? `${text.slice(0, 139)}…` : text,
          data: {
            commentId: created.id,
            parentId: created.parentId ?? '',
            ...(created.eventId && { eventId: created.eventId }),
            ...(created.tradeId && { tradeId: created.tradeId }),
          },
        },
      ]);
    }
    return created;
  }

  /** Deletes a comment and its replies; only its author may (403 otherwise). */
  async delete(userId: string, commentId: string): Promise<CommentView> {
    return this.prisma.$transaction(async (tx) => {
      const c = await tx.comment.findUnique({ where: { id: commentId }, select: COMMENT_VIEW_SELECT });
      if (!c) throw AppError.notFound(`comment ${commentId}`);
      if (c.authorId !== userId) throw AppError.forbidden('only the author may delete a comment');
      await tx.comment.delete({ where: { id: commentId } });
      if (c.parentId) await tx.comment.update({ where: { id: c.parentId }, data: { replyCount: { decrement: 1 } } });
      return c;
    });
  }

  /**
   * Idempotent: liking twice counts once. A like racing the comment's deletion
   * fails on the like's foreign key, which the error translation answers 404.
   */
  async like(userId: string, commentId: string): Promise<LikeState> {
    const { state, author, fresh } = await this.prisma.$transaction(async (tx) => {
      await this.requireIn(tx, commentId);
      const { count } = await tx.commentLike.createMany({ data: [{ commentId, userId }], skipDuplicates: true });
      const c = count
        ? await tx.comment.update({
            where: { id: commentId },
            data: { likeCount: { increment: count } },
            select: { likeCount: true, authorId: true },
          })
        : await tx.comment.findUniqueOrThrow({ where: { id: commentId }, select: { likeCount: true, authorId: true } });
      return { state: { commentId, liked: true, likeCount: c.likeCount }, author: c.authorId, fresh: count > 0 };
    });
    if (fresh && author !== userId) {
      // Once per liker and comment: unliking and liking again does not notify the author again.
      await this.notify([
        {
          userId: author,
          kind: 'comment_like',
          title: 'Your comment was liked',
          body: `${state.likeCount} like(s)`,
          data: { commentId },
          onceKey: `${commentId}:${userId}`,
        },
      ]);
    }
    return state;
  }

  /** Idempotent: unliking what is not liked changes nothing. */
  async unlike(userId: string, commentId: string): Promise<LikeState> {
    return this.prisma.$transaction(async (tx) => {
      await this.requireIn(tx, commentId);
      const { count } = await tx.commentLike.deleteMany({ where: { commentId, userId } });
      const c = count
        ? await tx.comment.update({
            where: { id: commentId },
            data: { likeCount: { decrement: count } },
            select: { likeCount: true },
          })
        : await tx.comment.findUniqueOrThrow({ where: { id: commentId }, select: { likeCount: true } });
      return { commentId, liked: false, likeCount: c.likeCount };
    });
  }

  /** Which of `commentIds` the user liked (the loader's batch). */
  async likedBy(userId: string, commentIds: readonly string[]): Promise<boolean[]> {
    const rows = await this.prisma.commentLike.findMany({
      where: { userId, commentId: { in: [...commentIds] } },
      select: { commentId: true },
    });
    const liked = new Set(rows.map((r) => r.commentId));
    return commentIds.map((id) => liked.has(id));
  }

  private async require(commentId: string): Promise<void> {
    await this.requireIn(this.prisma, commentId);
  }

  private async requireIn(db: Pick<PrismaClient, 'comment'>, commentId: string): Promise<void> {
    const c = await db.comment.findUnique({ where: { id: commentId }, select: { id: true } });
    if (!c) throw AppError.notFound(`comment ${commentId}`);
  }
}

function splitTradeId(tradeId: string): ['venue_a' | 'venue_b', string] {
  const m = /^(venue_a|venue_b):(.+)$/.exec(tradeId);
  if (!m) throw AppError.notFound(`trade ${tradeId}`);
  return [m[1] as 'venue_a' | 'venue_b', m[2]];
}
