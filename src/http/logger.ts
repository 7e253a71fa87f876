import pino from 'pino';

/** Structured JSON logs, one line per record. */
export type Logger = pino.Logger;

/**
 * Takes a warn or error record (its merging object) that an outage already reported, counting
 * it, and returns true: the record is then not written. See {@link absorbLogRecords}.
 */
export type LogAbsorber = (record: Record<string, unknown>) => boolean;

/** The absorbers of each logger made by {@link createLogger} (its children share them). */
const ABSORBERS = new WeakMap<Logger, LogAbsorber[]>();

/** pino's level number of `warn`: absorbers see warn, error and fatal records only. */
const WARN = 40;

export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  const absorbers: LogAbsorber[] = [];
  const logger = pino({
    level,
    base: { service: 'prediction-aggregator', ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.token', '*.secret'], remove: true },
    hooks: {
      logMethod(args, method, levelValue) {
        const record: unknown = args[0];
        const absorbed =
          levelValue >= WARN &&
          absorbers.length > 0 &&
          typeof record === 'object' &&
          record !== null &&
          absorbers.some((absorb) => absorb(record as Record<string, unknown>));
        if (!absorbed) method.apply(this, args);
      },
    },
  });
  ABSORBERS.set(logger, absorbers);
  return logger;
}

/**
 * Has `logger` (made by {@link createLogger}) and its children skip the warn and error records
 * `absorb` takes: a failure that an outage's one report already covers (a background job's
 * "failed" line every tick while the database is down). Returns false for another logger (one
 * a test made), which keeps writing everything.
 */
export function absorbLogRecords(logger: Logger, absorb: LogAbsorber): boolean {
  const absorbers = ABSORBERS.get(logger);
  if (!absorbers) return false;
  absorbers.push(absorb);
  return true;
}
