import { AppError } from '../../../src/errors/app-error';
import { SignedCursor } from '../../../src/http/signed-cursor';
import { keysetPage, type KeysetQuery } from '../../../src/modules/market-data/cursor-page';

const ROWS = Array.from({ length: 45 }, (_, i) => ({ id: `row-${String(i).padStart(3, '0')}`, even: i % 2 === 0 }));
const cursors = new SignedCursor('unit-test-cursor-secret');

function query(
  limit: number,
  cursor?: string,
  even?: boolean,
  list = 'rows',
): KeysetQuery<(typeof ROWS)[number], string> {
  const matching = ROWS.filter((r) => even === undefined || r.even === even);
  return {
    list,
    filters: { even: even === undefined ? null : String(even) },
    cursor,
    limit,
    fetch: async (after, take) => [
      matching.filter((r) => after === undefined || r.id > after).slice(0, take),
      matching.length,
    ],
    keyOf: (r) => r.id,
  };
}

async function walk(limit: number, even?: boolean) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await keysetPage(cursors, query(limit, cursor, even));
    seen.push(...page.data.map((r) => r.id));
    expect(page.hasMore).toBe(page.nextCursor !== null);
    if (!page.hasMore) return { seen, last: page };
    cursor = page.nextCursor!;
  }
}

describe('keysetPage', () => {
  it('walks every row exactly once with limit 7, the last page closed', async () => {
    const { seen, last } = await walk(7);
    expect(seen).toEqual(ROWS.map((r) => r.id));
    expect(last.nextCursor).toBeNull();
    expect(last.hasMore).toBe(false);
    expect(last.totalCount).toBe(45);
    expect(last.data).toHaveLength(45 % 7);
  });

  it('applies filters before paging and counts the filtered total', async () => {
    const { seen, last } = await walk(7, true);
    expect(seen).toEqual(ROWS.filter((r) => r.even).map((r) => r.id));
    expect(last.totalCount).toBe(23);
  });

  it('closes an exact last page without an empty extra page', async () => {
    const page = await keysetPage(cursors, query(45));
    expect(page.hasMore).toBe(false);
    expect(page.nextCursor).toBeNull();
  });

  it('re-fetches the same page from the same cursor', async () => {
    const first = await keysetPage(cursors, query(5));
    const a = await keysetPage(cursors, query(5, first.nextCursor!));
    const b = await keysetPage(cursors, query(5, first.nextCursor!));
    expect(b).toEqual(a);
    expect(a.data[0].id).toBe('row-005');
  });

  it('refuses tampered cursors and cursors of other filters or lists with 400 naming cursor', async () => {
    const { nextCursor } = await keysetPage(cursors, query(5, undefined, true));
    const expect400 = async (q: KeysetQuery<(typeof ROWS)[number], string>, message: string) => {
      const err = await keysetPage(cursors, q).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: 'bad_request', message });
    };
    const [body, sig] = nextCursor!.split('.') as [string, string];
    const edited = Buffer.from(Buffer.from(body, 'base64url').toString().replace('row-008', 'row-030')).toString(
      'base64url',
    );
    await expect400(query(5, `${edited}.${sig}`, true), 'cursor: is not a valid cursor');
    await expect400(query(5, `${body}.${sig.slice(1)}`, true), 'cursor: is not a valid cursor');
    await expect400(query(5, 'not-a-cursor', true), 'cursor: is not a valid cursor');
    await expect400(query(5, nextCursor!, false), 'cursor: was issued for other filters');
    await expect400(query(5, nextCursor!, undefined), 'cursor: was issued for other filters');
    await expect400(query(5, nextCursor!, true, 'other-list'), 'cursor: was issued for other filters');
    // Signed with another secret.
    const other = new SignedCursor('another-secret');
    await expect400(
      query(5, other.encode({ after: 'row-001' }, { list: 'rows', even: 'true' }), true),
      'cursor: is not a valid cursor',
    );
  });
});
