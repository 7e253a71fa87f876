/** Requests on one UTC day. */
export interface DailyUsageView {
  /** `YYYY-MM-DD`. */
  date: string;
  requests: number;
}

/** Usage statistics of a key owner over the last `periodDays` UTC days (today included). */
export interface UsageReportView {
  periodDays: number;
  totalRequests: number;
  /** Endpoint path template → requests. */
  byEndpoint: Record<string, number>;
  /** Every day of the period, oldest first, zeros included. */
  dailyUsage: DailyUsageView[];
}
