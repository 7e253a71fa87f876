import type { Embedder } from '../../../src/modules/search/embedder.types';
import { normalizeQuery, QueryEmbeddings } from '../../../src/modules/search/query-embeddings';

/** An embedder whose answers the test releases, recording every text it was asked for. */
function heldEmbedder(model = 'm1') {
  const texts: string[] = [];
  const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const embedder: Embedder = {
    provider: 'remote',
    model,
    embed: (batch) => {
      texts.push(...batch);
      return new Promise((resolve, reject) => {
        pending.push({ resolve: () => resolve(batch.map((t) => [t.length, 1])), reject });
      });
    },
  };
  return { embedder, texts, pending };
}

describe('normalizeQuery', () => {
  it('folds compatibility forms, case and white space', () => {
    expect(normalizeQuery('  Bitcoin \t  PRICE\n')).toBe('bitcoin price');
    expect(normalizeQuery('ＢＩＴＣＯＩＮ　price')).toBe('bitcoin price');
    expect(normalizeQuery('ﬁnal Ⅻ')).toBe('final xii');
  });
});

describe('QueryEmbeddings', () => {
  it('asks the provider once for normalised-equal queries, concurrent or later', async () => {
    const { embedder, texts, pending } = heldEmbedder();
    const cache = new QueryEmbeddings(embedder, 10);
    const concurrent = ['bitcoin price', 'Bitcoin  Price', ' BITCOIN PRICE ', 'ｂｉｔｃｏｉｎ price'].map((q) =>
      cache.embed(q),
    );
    expect(texts).toEqual(['bitcoin price']);
    pending[0].resolve();
    const vectors = await Promise.all(concurrent);
    expect(new Set(vectors).size).toBe(1);
    expect(await cache.embed('bitcoin PRICE')).toBe(vectors[0]);
    expect(texts).toHaveLength(1);
  });

  it('keeps no failure', async () => {
    const { embedder, texts, pending } = heldEmbedder();
    const cache = new QueryEmbeddings(embedder, 10);
    const failed = cache.embed('fed rates');
    pending[0].reject(new Error('upstream down'));
    await expect(failed).rejects.toThrow('upstream down');
    const again = cache.embed('fed rates');
    pending[1].resolve();
    await again;
    expect(texts).toEqual(['fed rates', 'fed rates']);
  });

  it('is bounded: the least recently used vector goes first', async () => {
    const { embedder, texts, pending } = heldEmbedder();
    const cache = new QueryEmbeddings(embedder, 2);
    const ask = async (q: string) => {
      const v = cache.embed(q);
      pending.at(-1)!.resolve();
      return v;
    };
    await ask('a');
    await ask('b');
    await cache.embed('a'); // a is now the most recently used
    await ask('c'); // evicts b
    expect(cache.size).toBe(2);
    await cache.embed('a');
    expect(texts).toEqual(['a', 'b', 'c']);
    await ask('b');
    expect(texts).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps nothing with a size of 0', async () => {
    const { embedder, texts, pending } = heldEmbedder();
    const cache = new QueryEmbeddings(embedder, 0);
    const first = cache.embed('x');
    pending[0].resolve();
    await first;
    const second = cache.embed('x');
    pending[1].resolve();
    await second;
    expect(texts).toEqual(['x', 'x']);
  });
});
