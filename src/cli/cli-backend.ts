import type { AppConfig } from '../config';
import { openDatabase, type Database } from '../db';
import { readRuntimeFile } from '../runtime-file';

/**
 * Where a CLI that writes data does its work. With the embedded database and a server running on
 * it, that server does it (PGlite admits one process; the server records its address in the data
 * folder); otherwise the CLI opens the database itself.
 */

/** Runs `work` on the database the configuration names, and closes it. */
async function onDatabase<T>(config: AppConfig, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
  });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

/** Sends an admin GraphQL operation to the running server; its `data`, or an error with the server's refusal. */
async function askServer<T>(url: string, config: AppConfig, query: string, variables?: object): Promise<T> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': config.tokens.admin },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (!body.data) throw new Error(`the running server refused: ${body.errors?.[0]?.message ?? res.status}`);
  return body.data;
}

/** A CLI's work both ways: as an admin operation on the running server, or on the database. */
export interface CliWork<S, R> {
  server: { query: string; variables?: object; answer: (data: S) => R };
  database: (db: Database) => Promise<R>;
}

/** Does `work` on the running server when there is one, else on the database; which one did it comes back in `via`. */
export async function onServerOrDatabase<S, R extends object>(
  config: AppConfig,
  work: CliWork<S, R>,
): Promise<{ via: 'server' | 'database' } & R> {
  const running = config.databaseUrl === undefined ? readRuntimeFile(config.dataDir) : null;
  if (running) {
    const data = await askServer<S>(running.url, config, work.server.query, work.server.variables);
    return { via: 'server', ...work.server.answer(data) };
  }
  return { via: 'database', ...(await onDatabase(config, work.database)) };
}
