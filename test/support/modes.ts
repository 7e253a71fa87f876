/**
 * The two modes the suite runs in: embedded (PGlite, in-process infra) and PostgreSQL
 * (`DATABASE_URL` set; CI sets `REDIS_URL` with it). PGlite serves one transaction at a time, so
 * requests "at once" there queue and run one after another: a test whose point is two
 * transactions racing proves nothing embedded that a sequence does not. Such a test runs on
 * PostgreSQL only ({@link itOnPostgres}), beside a test of the same behaviour one request after
 * another ({@link oneAfterAnother}) that runs in both modes, or embedded only ({@link itEmbedded}).
 */

/** True when the suite runs against PostgreSQL (`DATABASE_URL` set). */
export const onPostgres = Boolean(process.env.DATABASE_URL);

/** `describe` on PostgreSQL, `describe.skip` embedded. */
export const describeOnPostgres = onPostgres ? describe : describe.skip;

/** `it` on PostgreSQL, `it.skip` embedded: for races that only mean something with concurrent transactions. */
export const itOnPostgres = onPostgres ? it : it.skip;

/**
 * `it` embedded, `it.skip` on PostgreSQL: the one-after-another twin of an {@link itOnPostgres} race,
 * where the two would spend the same state (each mode runs one of them).
 */
export const itEmbedded = onPostgres ? it.skip : it;

/** Runs `send` `n` times at once (`i` from 0); the answers in that order. */
export function allAtOnce<T>(n: number, send: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => send(i)));
}

/** Runs `send` `n` times one after another (`i` from 0); the answers in that order. */
export async function oneAfterAnother<T>(n: number, send: (i: number) => Promise<T>): Promise<T[]> {
  const answers: T[] = [];
  for (let i = 0; i < n; i += 1) answers.push(await send(i));
  return answers;
}
