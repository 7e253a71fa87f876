export { OpsService, type RuntimeSnapshot, type HealthView, type PipelineView } from './ops.service';
