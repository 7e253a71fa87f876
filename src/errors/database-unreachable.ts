/**
 * Whether an error means the database could not be reached (as opposed to a statement it refused):
 * the server is down or refusing connections, a connection was cut or terminated, or connecting
 * timed out. Such an error is an outage of a dependency: the request is answered 503 `unavailable`
 * with `Retry-After` (normalize-error.ts) and the process logs the outage once
 * (src/infra/dependency-health.ts), not once per failed statement.
 *
 * The shapes, as PostgreSQL through `pg`, `@prisma/adapter-pg` and Prisma deliver them:
 * - Prisma's error (`PrismaClientKnownRequestError`) carries the driver adapter's in
 *   `meta.driverAdapterError.cause`; a statement run outside Prisma (`db.sql`) throws the adapter's
 *   `DriverAdapterError`, the same object in `cause`. Its `kind` names the failure:
 *   `DatabaseNotReachable` (ECONNREFUSED, ENOTFOUND: P1001), `ConnectionClosed` (ECONNRESET: P1017),
 *   `SocketTimeout` (ETIMEDOUT: P1008), `TooManyConnections` (53300: P2037); or `postgres` with the
 *   SQLSTATE in `code`/`originalCode` for the rest (a stopped server's `57P01` reaches a query on an
 *   open connection this way, as P2039).
 * - `pg` errors the adapter does not convert pass through Prisma unchanged, as plain `Error`s with
 *   no code: a connection cut under a query ("Connection terminated unexpectedly"), a connect or
 *   pool wait over `connectionTimeoutMillis` ("timeout exceeded when trying to connect",
 *   "Connection terminated due to connection timeout"), a client whose connection failed ("Client
 *   has encountered a connection error and is not queryable").
 * - A PostgreSQL error straight from `pg` (SQLSTATE in `code`, with a `severity`).
 * A bare socket error (ECONNRESET, …) is not matched: an upstream's could not be told from the
 * database's, and the adapter converts the database's (above).
 * PGlite runs in this process: it has no connection to lose, so nothing of it is matched here.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  // Follows `cause` a few levels: a service may wrap the driver's error in its own.
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth += 1) {
    if (matches(e)) return true;
    e = (e as ErrorLike).cause;
  }
  return false;
}

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  severity?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: AdapterCause } };
}

interface AdapterCause {
  kind?: unknown;
  code?: unknown;
  originalCode?: unknown;
}

/** Driver adapter error kinds that mean no connection could be had or kept. */
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

/** Prisma codes of those kinds (for an error whose `meta` was dropped). */
const UNREACHABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2037']);

/**
 * SQLSTATEs of a server that is going away or not taking connections: class 08 (connection
 * exception), 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up or
 * in recovery), 53300 too many connections.
 */
function unreachableState(state: unknown): boolean {
  return typeof state === 'string' && (state.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(state));
}

/** `pg`'s own messages for a connection that failed, was cut or timed out (it gives them no code). */
const PG_CONNECTION_MESSAGES = new Set([
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
]);

function matches(e: ErrorLike): boolean {
  const cause =
    e.name === 'DriverAdapterError' ? (e.cause as AdapterCause | undefined) : e.meta?.driverAdapterError?.cause;
  if (cause && typeof cause === 'object') {
    if (UNREACHABLE_KINDS.has(cause.kind as string)) return true;
    if (cause.kind === 'postgres' && (unreachableState(cause.originalCode) || unreachableState(cause.code)))
      return true;
  }
  if (e.name === 'PrismaClientKnownRequestError' && UNREACHABLE_PRISMA_CODES.has(e.code as string)) return true;
  // A PostgreSQL error straight from `pg` (outside the adapters): SQLSTATE in `code`, with a severity.
  if (typeof e.severity === 'string' && unreachableState(e.code)) return true;
  return typeof e.message === 'string' && PG_CONNECTION_MESSAGES.has(e.message);
}
