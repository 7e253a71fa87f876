export { ServiceContainer, ServiceToken, tokenName, type ServiceLocator, type Token } from './container';
export { defineLoaders, RequestLoaders, type LoaderLocator, type LoaderSet, type LoadersOf } from './loaders';
export {
  defineModule,
  onTopic,
  provide,
  type BackgroundTask,
  type ModuleDefinition,
  type ModuleScope,
  type ResolverClass,
  type ServiceProvider,
  type TopicSubscription,
} from './module';
export type { MemoEntry, Platform } from './platform';
export type { AppServices } from './app-services';
export { Readiness, type ReadinessProbes, type ReadinessReport } from './readiness';
