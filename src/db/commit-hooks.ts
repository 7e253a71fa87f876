import type { PrismaClient } from './generated/client';

/**
 * Work that must run once a transaction has committed, and never when it rolled back: what the
 * service announces about rows it wrote (an account's orders, fills, positions and balances go out
 * on a pub/sub topic only once they are durable).
 *
 * Prisma has no commit hook. {@link withCommitHooks} wraps a client's interactive `$transaction`
 * (the callback form): each transaction client it hands out gets a list of hooks, run in the order
 * they were added once the transaction committed (the promise `$transaction` returned settles
 * after the COMMIT, on every driver adapter), and dropped when the callback threw or the commit
 * failed. The wrapper sits above the driver adapter, so PGlite and PostgreSQL behave alike.
 * A deliberate reach past the library: the wrapper is the only place that sees both the
 * transaction client and the commit (docs/architecture.md, "Deliberate reaches past the libraries").
 *
 * Not covered, by design: the array form `$transaction([…])` (its statements are built before
 * any transaction client exists, so nothing can add a hook to it; it is passed through), and
 * statements outside Prisma (`Database.sql`). Prisma's transaction clients offer no nested
 * `$transaction`, so a transaction has exactly one list.
 */

const hooksByTransaction = new WeakMap<object, (() => void)[]>();
const wrapped = new WeakSet<object>();

/** Reports a hook that threw (it must not fail the caller, whose transaction has committed). */
export type CommitHookErrorHandler = (err: unknown) => void;

/** A hook should catch its own errors; one that throws is a process warning, never the caller's failure. */
function warn(err: unknown): void {
  process.emitWarning(`a commit hook failed: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Makes `prisma.$transaction(async (tx) => …)` run the hooks {@link afterCommit} adds on `tx` once
 * it committed. The array form (`$transaction([…])`) is passed through untouched. Idempotent.
 */
export function withCommitHooks(prisma: PrismaClient, onError: CommitHookErrorHandler = warn): void {
  if (wrapped.has(prisma)) return;
  wrapped.add(prisma);
  const original = prisma.$transaction.bind(prisma) as (arg: unknown, options?: unknown) => Promise<unknown>;
  const wrappedTransaction = async (arg: unknown, options?: unknown): Promise<unknown> => {
    if (typeof arg !== 'function') return original(arg, options);
    const run = arg as (tx: object) => Promise<unknown>;
    let hooks: CommitHooks | undefined;
    let result: unknown;
    try {
      result = await original((tx: object) => {
        hooks = openCommitHooks(tx);
        return run(tx);
      }, options);
    } catch (err) {
      hooks?.drop();
      throw err;
    }
    hooks?.run(onError);
    return result;
  };
  Object.defineProperty(prisma, '$transaction', { value: wrappedTransaction, configurable: true, writable: true });
}

/** The hooks of one transaction client, for whoever runs its transaction. */
export interface CommitHooks {
  /** Committed: runs the hooks in the order they were added (one that throws goes to `onError`). */
  run(onError?: CommitHookErrorHandler): void;
  /** Rolled back, or the commit failed: the hooks never run. */
  drop(): void;
}

/**
 * Starts `tx`'s list of hooks ({@link afterCommit} adds to it until the transaction ends): for a
 * transaction run outside Prisma's `$transaction` (`RawSql.transaction`), as the wrapper does for
 * Prisma's. Either way the list is closed: a hook added later is refused.
 */
export function openCommitHooks(tx: object): CommitHooks {
  const hooks: (() => void)[] = [];
  hooksByTransaction.set(tx, hooks);
  return {
    run: (onError = warn) => {
      hooksByTransaction.delete(tx);
      for (const hook of hooks) {
        try {
          hook();
        } catch (err) {
          onError(err);
        }
      }
    },
    drop: () => {
      hooksByTransaction.delete(tx);
    },
  };
}

/**
 * Runs `hook` once what `db` wrote is committed: at the end of its transaction when `db` is a
 * transaction client of a wrapped client, at once when `db` is the wrapped client itself (each
 * statement commits on its own). False, and `hook` never runs, for anything else: a transaction
 * whose commit cannot be seen (a client that {@link withCommitHooks} did not wrap, or a
 * transaction client whose transaction has ended).
 */
export function afterCommit(db: object, hook: () => void): boolean {
  const hooks = hooksByTransaction.get(db);
  if (hooks) {
    hooks.push(hook);
    return true;
  }
  if (!wrapped.has(db)) return false;
  hook();
  return true;
}
