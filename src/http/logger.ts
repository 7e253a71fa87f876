import pino from 'pino';

/** Structured JSON logs, one line per record. */
export type Logger = pino.Logger;

export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'prediction-aggregator', ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.token', '*.secret'], remove: true },
  });
}
