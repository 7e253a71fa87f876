export { UsageRecorder, utcDay, type UsageCount, type UsageRecorderOptions } from './usage.recorder';
export { UsageService, summarize } from './usage.service';
export * from './usage.limits';
export * from './usage.models';
