export { AccountAnnouncer } from './account-announcer';
export * from './account-streams.models';
