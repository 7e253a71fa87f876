export { ExecutionService, type ExecutionStream, type ExecutionServiceDeps } from './execution.service';
export { TradeRecorder } from './trade-recorder';
export { ExecutionServiceClient } from './execution-service.client';
export { checkExecuteRequest, checkSellRequest } from './execute-request';
export { ExecutionModeEnum, OrderTypeEnum } from './execution.types';
export * from './execution.models';
export * from './execution.limits';
