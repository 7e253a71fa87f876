export {
  NotificationsService,
  NOTIFICATION_KINDS,
  PUSH_PLATFORMS,
  type NewNotification,
  type NotificationKind,
} from './notifications.service';
export { NOTIFICATION_LIMITS } from './notifications.resolver';
export { HttpPushClient, SimulatedPushClient, type PushClient, type PushDelivery } from './push.client';
export { PREFERENCES, PREFERENCE_KEYS } from './preferences.spec';
