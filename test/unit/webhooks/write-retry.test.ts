import { isRetryableWriteConflict, withWriteRetry } from '../../../src/modules/ingestion/write-retry';

/** A Prisma raw-query error as the driver adapters report a PostgreSQL error (P2010 with the SQLSTATE in its cause). */
const rawError = (sqlState: string) =>
  Object.assign(new Error(`Raw query failed. Code: \`${sqlState}\``), {
    code: 'P2010',
    meta: {
      driverAdapterError: {
        name: 'DriverAdapterError',
        cause: { originalCode: sqlState, kind: 'TransactionWriteConflict' },
      },
    },
  });

describe('write conflicts', () => {
  it.each([
    ['a deadlock (40P01)', true, rawError('40P01')],
    ['a serialization failure (40001)', true, rawError('40001')],
    ['a model query write conflict (P2034)', true, Object.assign(new Error('write conflict'), { code: 'P2034' })],
    ['a unique violation (23505)', false, rawError('23505')],
    ['a plain error', false, new Error('boom')],
    ['not an error', false, 'deadlock detected'],
  ])('%s → retryable %s', (_name, expected, err) => {
    expect(isRetryableWriteConflict(err)).toBe(expected);
  });

  it('runs the work again after a conflict, up to the attempts given', async () => {
    let calls = 0;
    const retried: number[] = [];
    const out = await withWriteRetry(
      async () => {
        calls += 1;
        if (calls < 3) throw rawError('40P01');
        return 'stored';
      },
      { backoffMs: 1, onRetry: (_err, attempt) => retried.push(attempt) },
    );
    expect([out, calls, retried]).toEqual(['stored', 3, [1, 2]]);

    let tries = 0;
    await expect(
      withWriteRetry(
        async () => {
          tries += 1;
          throw rawError('40001');
        },
        { attempts: 2, backoffMs: 1 },
      ),
    ).rejects.toMatchObject({ code: 'P2010' });
    expect(tries).toBe(2);
  });

  it('never runs the work again after another error', async () => {
    let calls = 0;
    await expect(
      withWriteRetry(async () => {
        calls += 1;
        throw rawError('23505');
      }),
    ).rejects.toThrow('23505');
    expect(calls).toBe(1);
  });
});
