/**
 * Counts the SQL statements Prisma executes, by wrapping a driver adapter factory: every
 * `queryRaw`/`executeRaw` of its adapters and of the transactions they start counts one.
 *
 * Transaction control is counted the same way on both back ends: `BEGIN` (run by the
 * adapters themselves) counts one when a transaction starts; `COMMIT`/`ROLLBACK` count
 * one either as the `executeRaw` Prisma sends (PostgreSQL) or, where the adapter runs
 * them itself (PGlite, `usePhantomQuery`), on `commit()`/`rollback()`.
 *
 * The counter's observer, when set, is told how each of those calls ended (the database's
 * reachability is judged from it: src/infra/dependency-health.ts).
 */
import type {
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQueryable,
  Transaction,
} from '@prisma/driver-adapter-utils';

/** Told how each statement ended; it must not throw. */
export interface StatementObserver {
  succeeded(): void;
  failed(error: unknown): void;
}

/** A mutable statement counter, and who is told each statement's outcome. */
export interface QueryCounter {
  count: number;
  observer?: StatementObserver;
}

/** `call`'s promise, its outcome told to the counter's observer. */
function observed<T>(counter: QueryCounter, call: Promise<T>): Promise<T> {
  return call.then(
    (value) => {
      counter.observer?.succeeded();
      return value;
    },
    (error: unknown) => {
      counter.observer?.failed(error);
      throw error;
    },
  );
}

function countQueryable<T extends SqlQueryable>(inner: T, counter: QueryCounter) {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query: Parameters<T['queryRaw']>[0]) => {
      counter.count++;
      return observed(counter, inner.queryRaw(query));
    },
    executeRaw: (query: Parameters<T['executeRaw']>[0]) => {
      counter.count++;
      return observed(counter, inner.executeRaw(query));
    },
  };
}

function countTransaction(inner: Transaction, counter: QueryCounter): Transaction {
  const phantom = inner.options.usePhantomQuery;
  const tx: Transaction = {
    ...countQueryable(inner, counter),
    options: inner.options,
    commit: () => {
      if (phantom) counter.count++;
      return observed(counter, inner.commit());
    },
    rollback: () => {
      if (phantom) counter.count++;
      return observed(counter, inner.rollback());
    },
  };
  // Savepoints run one statement each (through the inner transaction's own executeRaw).
  const createSavepoint = inner.createSavepoint?.bind(inner);
  const rollbackToSavepoint = inner.rollbackToSavepoint?.bind(inner);
  const releaseSavepoint = inner.releaseSavepoint?.bind(inner);
  if (createSavepoint) {
    tx.createSavepoint = (name) => {
      counter.count++;
      return createSavepoint(name);
    };
  }
  if (rollbackToSavepoint) {
    tx.rollbackToSavepoint = (name) => {
      counter.count++;
      return rollbackToSavepoint(name);
    };
  }
  if (releaseSavepoint) {
    tx.releaseSavepoint = (name) => {
      counter.count++;
      return releaseSavepoint(name);
    };
  }
  return tx;
}

function countAdapter(inner: SqlDriverAdapter, counter: QueryCounter): SqlDriverAdapter {
  const adapter: SqlDriverAdapter = {
    ...countQueryable(inner, counter),
    executeScript: (script) => {
      counter.count++;
      return observed(counter, inner.executeScript(script));
    },
    startTransaction: async (isolationLevel) => {
      counter.count++;
      return countTransaction(await observed(counter, inner.startTransaction(isolationLevel)), counter);
    },
    dispose: () => inner.dispose(),
  };
  if (inner.getConnectionInfo) adapter.getConnectionInfo = () => inner.getConnectionInfo!();
  return adapter;
}

/**
 * Returns a factory whose adapters (and their transactions) increment `counter.count`
 * for every statement.
 */
export function withQueryCounting(factory: SqlDriverAdapterFactory, counter: QueryCounter): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => countAdapter(await factory.connect(), counter),
  };
}
