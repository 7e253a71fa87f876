import {
  clauseTerms,
  mentions,
  properNames,
  stem,
  thresholds,
  titleAcronyms,
} from '../../../src/modules/comparisons/match-text';

describe('match text features', () => {
  it('stems related forms together', () => {
    expect(stem('approval')).toBe(stem('approves'));
    expect(stem('closing')).toBe(stem('close'));
    expect(stem('passage')).toBe(stem('passes'));
    expect(stem('signature')).toBe(stem('signed'));
  });

  it('separates what a text counts from what it rules out', () => {
    const t = clauseTerms(
      'Resolves on the highest price, not on a closing price. Intraday highs do not count; SEC approval alone ' +
        'is not sufficient.',
    );
    expect([...t.excluded].sort()).toEqual(['approv', 'clos', 'high', 'intraday', 'sec'].sort());
    expect(t.affirmed.has('highest')).toBe(true);
    expect(t.affirmed.has('clos')).toBe(false);
    expect(t.surface.get('clos')).toBe('closing');
    const rather = clauseTerms('Resolves on the Artificial Analysis index rather than LMArena.');
    expect([...rather.excluded]).toEqual(['lmarena']);
    const need = clauseTerms('Trading need not have begun. Senate passage and signature are not required.');
    expect([...need.excluded].sort()).toEqual(['pass', 'senat', 'sign', 'trad'].sort());
  });

  it('treats a "not" inside an excluded subject as a double negation', () => {
    const t = clauseTerms('Elections merely called, not held, do not count.');
    expect(t.excluded.has('call')).toBe(true);
    expect(t.excluded.has('held')).toBe(false);
  });

  it('reads strikes, not dates and years', () => {
    expect(thresholds('Will BTC be above $120,000 on March 31, 2027?')).toEqual([120000]);
    expect(thresholds('Sept Arctic sea ice below 4.5M km²?')).toEqual([4500000]);
    expect(thresholds('below 4.5 million km² in 2026')).toEqual([4500000]);
    expect(thresholds('Magnitude 8+ earthquake before Mar 31, 2027?')).toEqual([8]);
    expect(thresholds('Will Arsenal win the 2025-26 UEFA Champions League?')).toEqual([]);
    expect(thresholds('Above 2.6% in Jan?')).toEqual([2.6]);
  });

  it('finds title acronyms and checks mentions, including initials', () => {
    expect(titleAcronyms('Approval rating (RCP average) on Feb 28, 2027')).toEqual(['rcp']);
    expect(titleAcronyms('Top AI model (LMArena) in the U.S.')).toEqual(['ai', 'lmarena', 'us']);
    expect(mentions('Grand Theft Auto VI from Rockstar', 'gta')).toBe(true);
    expect(mentions('Manchester City host Arsenal', 'man')).toBe(true);
    expect(mentions('the Silver Bulletin average', 'rcp')).toBe(false);
    expect(properNames('Markets on the Silver Bulletin average. Approval per the BLS.')).toEqual([
      'silver',
      'bulletin',
      'bls',
    ]);
  });
});
