import { createHash, randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient } from '../../db/generated/client';
import type { OffsetPage } from '../../db/offset-page';
import { AppError } from '../../errors/app-error';
import { afterCommit } from '../../db/commit-hooks';
import type { SqlClient } from '../../db/raw-sql';
import { NOTIFICATION_KINDS, type NotificationKind, type PushPlatform } from './notifications.limits';
import {
  checkPreference,
  defaultPreferences,
  isPreferenceKey,
  type Preferences,
  type PreferenceValue,
} from './preferences.models';
import type { PushClient, PushDelivery } from './push.client';
import { ServiceToken } from '../../kernel';

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  data?: Record<string, string>;
  /**
   * Makes the notification once-only: another with the same user, kind and
   * key is neither stored nor pushed again (a like of a comment by one user,
   * however often it is unliked and liked again).
   */
  onceKey?: string;
}

/** Pushes in flight at once for one batch: a slow or failing provider call holds up no more than its slot. */
export const PUSH_CONCURRENCY = 8;

/** Device tokens one user keeps unless configured (`PUSH_TOKENS_PER_USER`). */
export const DEFAULT_PUSH_TOKENS_PER_USER = 20;

/** First half of the two-int advisory lock key that serialises one user's push-token registrations. */
const PUSH_TOKEN_USER_LOCK = 0x707573;

export interface NotificationView {
  id: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, string>;
  read: boolean;
  readAt: Date | null;
  createdAt: Date;
}

export interface NotificationPage extends OffsetPage<NotificationView> {
  unreadCount: number;
}

/** The id of a once-only notification: the same for the same user, kind and key (UUID-shaped, from a hash). */
function onceId(userId: string, kind: NotificationKind, key: string): string {
  const h = createHash('sha256').update(`${userId}\u0000${kind}\u0000${key}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Runs `work` over `items` with at most `limit` running at once. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function toView(n: {
  id: string;
  kind: string;
  title: string;
  body: string;
  data: Prisma.JsonValue;
  readAt: Date | null;
  createdAt: Date;
}): NotificationView {
  return { ...n, data: (n.data ?? {}) as Record<string, string>, read: n.readAt !== null };
}

/**
 * Notifications: stored for the in-app list, and pushed to the user's devices
 * when the user's preference for that kind allows. Pushing happens after the
 * write and never fails the operation that caused it.
 */
/**
 * Stores notifications (and pushes them). Alone (no `db`), after the write that caused them and
 * without failing it: errors are logged. With `db`, a transaction client, inside that write's
 * transaction: stored with it or not at all (a crash after its commit loses nothing), an error
 * fails the transaction as its own statements would, and the pushes start once it committed.
 */
export type Notify = (items: NewNotification[], db?: SqlClient) => Promise<void>;

/** The {@link Notify} the notifications module provides to the modules that notify. */
export const NOTIFY = new ServiceToken<Notify>('notifications.notify');

/** Notifications a caller writes in its own statement ({@link NotificationsService.statementPart}). */
export type NotificationPart = ReturnType<NotificationsService['statementPart']>;
export type NotifyInStatement = (items: readonly NewNotification[]) => NotificationPart;

/** The {@link NotifyInStatement} the notifications module provides (a new paper order's one statement). */
export const NOTIFY_IN_STATEMENT = new ServiceToken<NotifyInStatement>('notifications.notify-in-statement');

export class NotificationsService {
  private inflight = new Set<Promise<void>>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly push: PushClient,
    private readonly onPushError: (err: unknown) => void = () => undefined,
    /** The most device tokens one user keeps ({@link registerPushToken}). */
    private readonly tokensPerUser: number = DEFAULT_PUSH_TOKENS_PER_USER,
  ) {}

  /**
   * Stores notifications and pushes those stored: a once-only notification
   * already stored before is skipped. One statement stores them and reads the
   * stored ones' push tokens. Raw SQL: Prisma compiles every `createManyAndReturn`
   * afresh (its query plan cache skips them), and this runs once per order.
   */
  async notify(items: readonly NewNotification[], db?: SqlClient): Promise<void> {
    if (items.length === 0) return;
    const part = this.statementPart(items);
    const [row] = await (db ?? this.prisma).$queryRaw<{ pushTo: [string, string][] | null }[]>`
      WITH ${part.ctes} SELECT ${part.pushTo} AS "pushTo"`;
    part.stored(db, row.pushTo);
  }

  /**
   * The notifications as part of a caller's own statement: the CTE `stored` (the notifications
   * stored, a once-only one stored before skipped), `pushTo` (a column expression: the stored
   * ones' device tokens, as JSON pairs of notification id and token, or null) for its SELECT, and
   * `stored` to call with what `pushTo` read once the statement ran (`db`: its client, whose commit
   * hooks start the pushes).
   */
  statementPart(items: readonly NewNotification[]): {
    ctes: Prisma.Sql;
    pushTo: Prisma.Sql;
    stored(db: SqlClient | undefined, pairs: readonly (readonly [string, string])[] | null): void;
  } {
    const rows = items.map((n) => ({
      id: n.onceKey === undefined ? randomUUID() : onceId(n.userId, n.kind, n.onceKey),
      userId: n.userId,
      kind: n.kind,
      title: n.title,
      body: n.body,
      data: n.data ?? {},
    }));
    const values = rows.map(
      (r) => Prisma.sql`(${r.id}, ${r.userId}, ${r.kind}, ${r.title}, ${r.body}, ${JSON.stringify(r.data)}::jsonb)`,
    );
    return {
      ctes: Prisma.sql`stored AS (
        INSERT INTO "Notification" ("id", "userId", "kind", "title", "body", "data") VALUES ${Prisma.join(values)}
        ON CONFLICT DO NOTHING RETURNING "id", "userId"
      )`,
      pushTo: Prisma.sql`(SELECT json_agg(json_build_array(s."id", t."token"))
        FROM stored s JOIN "PushToken" t ON t."userId" = s."userId")`,
      stored: (db, pairs) => {
        const tokens = new Map<string, string[]>();
        for (const [id, token] of pairs ?? []) tokens.set(id, [...(tokens.get(id) ?? []), token]);
        const push = () => {
          const delivery = this.deliver(rows, tokens).catch(this.onPushError);
          this.inflight.add(delivery);
          void delivery.finally(() => this.inflight.delete(delivery));
        };
        // In a transaction: pushed once it committed, never when it rolled back.
        if (db === undefined || !afterCommit(db, push)) push();
      },
    };
  }

  /** Resolves when pushes already started are done (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.inflight]);
  }

  async list(userId: string, limit: number, offset: number, unreadOnly: boolean): Promise<NotificationPage> {
    const where: Prisma.NotificationWhereInput = { userId, ...(unreadOnly && { readAt: null }) };
    const [rows, total, unreadCount] = await this.prisma.$transaction([
      this.prisma.notification.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
        skip: offset,
        take: limit,
      }),
      this.prisma.notification.count({ where }),
      this.prisma.notification.count({ where: { userId, readAt: null } }),
    ]);
    return { data: rows.map(toView), limit, offset, total, unreadCount };
  }

  /** Marks the given notifications (or all) read; returns how many changed. */
  async markRead(userId: string, ids?: readonly string[]): Promise<{ marked: number }> {
    const { count } = await this.prisma.notification.updateMany({
      where: { userId, readAt: null, ...(ids !== undefined && { id: { in: [...ids] } }) },
      data: { readAt: new Date() },
    });
    return { marked: count };
  }

  /**
   * Registers (or refreshes) a device token for `userId`. A token moves with its device:
   * re-registering it under another user takes it over. A user keeps at most `tokensPerUser`
   * tokens: registering one more drops the user's least recently registered ones in the same
   * transaction, so a client never gets an error for it. Recency is `lastUsedAt`, the time of the
   * token's latest registration, made strictly increasing per user under a per-user advisory lock
   * (so concurrent registrations cannot leave more than the cap, and two registrations within one
   * millisecond still have an order).
   */
  async registerPushToken(userId: string, token: string, platform: PushPlatform) {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${PUSH_TOKEN_USER_LOCK}, hashtext(${userId}::text))`;
      const [row] = await tx.$queryRaw<{ token: string; platform: string; createdAt: Date }[]>`
        WITH latest AS (
          SELECT max(COALESCE("lastUsedAt", "createdAt")) AS at FROM "PushToken" WHERE "userId" = ${userId}
        ), stamp AS (
          SELECT GREATEST(
            date_trunc('milliseconds', clock_timestamp())::timestamp,
            (SELECT at FROM latest) + interval '1 millisecond'
          ) AS at
        )
        INSERT INTO "PushToken" ("token", "userId", "platform", "lastUsedAt")
        SELECT ${token}, ${userId}, ${platform}, at FROM stamp
        ON CONFLICT ("token") DO UPDATE
          SET "userId" = EXCLUDED."userId", "platform" = EXCLUDED."platform", "lastUsedAt" = EXCLUDED."lastUsedAt"
        RETURNING "token", "platform", "createdAt"`;
      await tx.$executeRaw`
        DELETE FROM "PushToken" WHERE "token" IN (
          SELECT "token" FROM "PushToken" WHERE "userId" = ${userId} AND "token" <> ${token}
          ORDER BY COALESCE("lastUsedAt", "createdAt") DESC, "token" DESC
          OFFSET ${this.tokensPerUser - 1}
        )`;
      return row;
    });
  }

  async removePushToken(userId: string, token: string): Promise<{ removed: boolean }> {
    const { count } = await this.prisma.pushToken.deleteMany({ where: { token, userId } });
    return { removed: count > 0 };
  }

  async preferences(userId: string): Promise<Preferences> {
    const rows = await this.prisma.userPreference.findMany({ where: { userId } });
    const prefs = defaultPreferences();
    for (const r of rows) if (isPreferenceKey(r.key)) prefs[r.key] = r.value as PreferenceValue;
    return prefs;
  }

  /** Merges the given keys (all validated first: nothing is stored when one is wrong). */
  async updatePreferences(userId: string, patch: Record<string, unknown>): Promise<Preferences> {
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
      throw AppError.badRequest('body', 'must be an object of preferences');
    const entries = Object.entries(patch).map(([k, v]) => [k, checkPreference(k, v)] as const);
    await this.prisma.$transaction(
      entries.map(([key, value]) =>
        this.prisma.userPreference.upsert({
          where: { userId_key: { userId, key } },
          create: { userId, key, value },
          update: { value },
        }),
      ),
    );
    return this.preferences(userId);
  }

  /**
   * Pushes each notification its user's preference allows to the user's
   * devices (`tokens`, by notification id: those stored just now with a device). Each push stands alone: a failed
   * one goes to the error hook and the others are still sent, at most
   * {@link PUSH_CONCURRENCY} at a time.
   */
  private async deliver(
    rows: { id: string; userId: string; kind: string; title: string; body: string; data: Record<string, string> }[],
    tokens: ReadonlyMap<string, readonly string[]>,
  ): Promise<void> {
    const withDevices = rows.filter((r) => tokens.has(r.id));
    // Most users have no device registered: their preferences are not read at all.
    if (withDevices.length === 0) return;
    const prefs = await this.prisma.userPreference.findMany({
      where: { userId: { in: [...new Set(withDevices.map((r) => r.userId))] }, key: { startsWith: 'notifications.' } },
    });
    const defaults = defaultPreferences();
    const allowed = (userId: string, kind: string) => {
      const key = NOTIFICATION_KINDS[kind as NotificationKind];
      const stored = prefs.find((p) => p.userId === userId && p.key === key);
      return (stored ? stored.value : defaults[key]) === true;
    };
    const deliveries: PushDelivery[] = [];
    for (const r of withDevices) {
      if (!allowed(r.userId, r.kind)) continue;
      deliveries.push({
        tokens: [...(tokens.get(r.id) ?? [])],
        message: { title: r.title, body: r.body, data: { kind: r.kind, ...r.data } },
      });
    }
    await eachLimited(deliveries, PUSH_CONCURRENCY, async (d) => {
      try {
        await this.push.send(d);
      } catch (err) {
        this.onPushError(err);
      }
    });
  }
}
