import { z } from 'zod';
import {
  MarkNotificationsReadDocument,
  NotificationsDocument,
  PreferencesDocument,
  RegisterPushTokenDocument,
  RemovePushTokenDocument,
  UpdatePreferencesDocument,
} from '../schema/generated/operations';
import { NOTIFICATION_LIMITS as L, PUSH_PLATFORMS } from '../src/modules/notifications/notifications.limits';
import { int, requiredStr } from './params';
import { route } from './route.types';

const common = { surface: 'trading', auth: 'bearer', tags: ['notifications'] } as const;

/** Notifications, push tokens and the preference store (all for the caller). */
export const notificationRoutes = [
  route({
    ...common,
    id: 'listNotifications',
    method: 'GET',
    path: '/api/notifications',
    summary: 'Notifications, newest first; `unread=true` for unread ones only.',
    params: {
      query: z.object({
        limit: int(L.limit.min, L.limit.max, L.limit.default),
        offset: int(0, L.offset.max, 0),
        unread: z.enum(['true'], { error: 'only `true` is accepted' }).optional(),
      }),
    },
    document: NotificationsDocument,
    variables: ({ unread, ...rest }: Record<string, unknown>) => ({ ...rest, unreadOnly: unread === 'true' }),
    result: 'notifications',
    errors: [400, 401],
  }),
  route({
    ...common,
    id: 'markNotificationsRead',
    method: 'POST',
    path: '/api/notifications/read',
    summary: 'Mark the given ids read; all of them when `ids` is omitted.',
    params: {
      body: z.object({
        ids: z
          .array(requiredStr(100))
          .max(L.readIds.max, { error: `must list at most ${L.readIds.max} ids` })
          .optional(),
      }),
    },
    document: MarkNotificationsReadDocument,
    result: 'markNotificationsRead',
    errors: [400, 401],
  }),
  route({
    ...common,
    id: 'registerPushToken',
    method: 'POST',
    path: '/api/push-tokens',
    summary:
      'Register a device for push notifications (idempotent). A user keeps a bounded number of devices (20 by ' +
      'default): one more unregisters the least recently registered. 429 beyond a per-user burst limit.',
    params: {
      body: z.object({
        token: z
          .string({ error: 'is required' })
          .min(16, { error: 'must be 16 to 4096 characters' })
          .max(4096, { error: 'must be 16 to 4096 characters' })
          .regex(/^[\x21-\x7e]+$/, { error: 'must be printable ASCII without spaces' }),
        platform: z.enum(PUSH_PLATFORMS, { error: `must be one of ${PUSH_PLATFORMS.join(', ')}` }),
      }),
    },
    document: RegisterPushTokenDocument,
    result: 'registerPushToken',
    status: 201,
    errors: [400, 401, 429],
  }),
  route({
    ...common,
    id: 'removePushToken',
    method: 'DELETE',
    path: '/api/push-tokens',
    summary: 'Unregister a device (idempotent).',
    params: { body: z.object({ token: requiredStr(4096) }) },
    document: RemovePushTokenDocument,
    result: 'removePushToken',
    errors: [400, 401],
  }),
  route({
    ...common,
    id: 'getPreferences',
    method: 'GET',
    path: '/api/preferences',
    summary: 'Every preference with its stored or default value.',
    document: PreferencesDocument,
    result: 'preferences',
    errors: [401],
  }),
  route({
    ...common,
    id: 'updatePreferences',
    method: 'PUT',
    path: '/api/preferences',
    summary: 'Merge preferences; unknown keys, wrong types or oversize values are a 400.',
    params: { body: z.record(z.string(), z.unknown()) as unknown as z.ZodObject<z.ZodRawShape> },
    document: UpdatePreferencesDocument,
    variables: (values: Record<string, unknown>) => ({ values }),
    result: 'updatePreferences',
    errors: [400, 401],
  }),
];
