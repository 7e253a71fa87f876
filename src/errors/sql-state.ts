/**
 * The SQLSTATE of a failed statement, when it has one: a Prisma error carries
 * the driver adapter's error in `meta`; the adapter's own error (a statement
 * run outside Prisma) carries it in `cause`.
 */
export function sqlStateOf(err: unknown): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  type AdapterCause = { cause?: { originalCode?: unknown } };
  const meta = (err as { meta?: { driverAdapterError?: AdapterCause } }).meta;
  const adapterError: AdapterCause = meta?.driverAdapterError ?? err;
  const code = adapterError.cause?.originalCode;
  return typeof code === 'string' ? code : undefined;
}
