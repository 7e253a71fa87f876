export { ExecutionService, type ExecutionStream, type ExecutionServiceDeps } from './execution.service';
export { ExecutionResolver } from './execution.resolver';
export { TradeRecorder, type OrderDraft, type RecordedFill } from './trade-recorder';
export { ExecutionServiceClient } from './execution-service.client';
export { checkExecuteRequest, checkSellRequest } from './execute-request';
export { ExecutionModeEnum, OrderTypeEnum } from './execution.types';
export * from './execution.models';
export * from './execution.limits';
