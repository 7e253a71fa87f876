export {
  NOTIFY,
  NOTIFY_IN_STATEMENT,
  NotificationsService,
  type NewNotification,
  type NotificationPart,
  type Notify,
  type NotifyInStatement,
} from './notifications.service';
export {
  NOTIFICATION_KINDS,
  NOTIFICATION_LIMITS,
  PUSH_PLATFORMS,
  type NotificationKind,
  type PushPlatform,
} from './notifications.limits';
export { HttpPushClient, SimulatedPushClient, type PushClient, type PushDelivery } from './push.client';
export { PREFERENCES, PREFERENCE_KEYS } from './preferences.models';
