export { FundingService } from './funding.service';
export {
  WithdrawalsService,
  withdrawalNotification,
  type FinishResult,
  type PayoutRef,
  type WithdrawalRequest,
} from './withdrawals.service';
export { createPaymentsClient, type PaymentsClient } from './payments.client';
export * from './funding.limits';
export * from './funding.models';
