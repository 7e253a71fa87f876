import { cosine, LOCAL_DIMENSION, LocalEmbedder } from '../../../src/modules/search';
import { contentWords, normalizeText } from '../../../src/modules/search/text-features';

describe('text features', () => {
  it('canonicalizes numbers, magnitudes and currency', () => {
    expect(contentWords('$120k')).toEqual(contentWords('120,000'));
    expect(contentWords('4.0M km²')).toEqual(contentWords('4 million km2'));
    expect(contentWords('$2.50')).toEqual(['2.5']);
    expect(normalizeText('Q4 2026').trim().split(/\s+/)).toEqual(['q4', '2026']);
  });

  it('folds synonyms, abbreviations and plurals onto one term', () => {
    expect(contentWords('BTC')).toEqual(contentWords('Bitcoin'));
    expect(contentWords('jobless')).toEqual(contentWords('unemployment'));
    expect(contentWords('Federal Reserve')).toEqual(contentWords('FOMC'));
    expect(contentWords('releases')).toEqual(contentWords('release'));
    expect(contentWords('Will the market resolve yes?')).toEqual([]);
  });
});

describe('LocalEmbedder', () => {
  const embedder = new LocalEmbedder();

  it('is deterministic, unit length and of the fixed dimension', async () => {
    const [a, b] = await embedder.embed(['Bitcoin above $120k by March?', 'Bitcoin above $120k by March?']);
    expect(a).toEqual(b);
    expect(a).toHaveLength(LOCAL_DIMENSION);
    expect(Math.hypot(...a)).toBeCloseTo(1, 12);
  });

  it('puts paraphrases closer than unrelated texts', async () => {
    const [q, para, other] = await embedder.embed([
      'will the fed cut interest rates in december',
      'Fed interest rate decision in December 2026',
      'Los Angeles Lakers vs. Boston Celtics',
    ]);
    expect(cosine(q, para)).toBeGreaterThan(0.3);
    expect(cosine(q, para)).toBeGreaterThan(cosine(q, other) + 0.25);
  });

  it('maps an empty or stopword-only text to the zero vector (similar to nothing)', async () => {
    const [v] = await embedder.embed(['the will of a']);
    expect(v.every((x) => x === 0)).toBe(true);
  });
});
