/**
 * The names a market is about: the proper names of a title, and whether a text mentions one (its
 * word, its stem, a longer form of it, or its initials). Pure and deterministic.
 */

import { isStopword, mentions, stem, words } from './match-text';

/** Capitalized words that name nothing in particular ("Winner", "Election", "Price"). */
const GENERIC = new Set(
  (
    'winner winners win wins champion championship election elections presidential president price prices rate rates ' +
    'market markets top song songs album artist score game match meeting decision fed federal reserve us usa u.s ' +
    'yes no over under above below between combo weekly daily monthly annual global world national new next ' +
    'tournament cup league season series final round party nominee candidate republican democratic republicans ' +
    'democrats approval rating index average highest lowest temperature high low inflation'
  ).split(/\s+/),
);

/** Proper names in a title (not acronyms, not generic words), lower-cased. */
export function titleNames(title: string): string[] {
  const out = new Set<string>();
  for (const token of title.split(/[^A-Za-zÀ-ÿ'’.-]+/)) {
    const t = token.replace(/^['’.-]+|['’.-]+$/g, '');
    if (!/^[A-ZÀ-Þ][a-zß-ÿ]/.test(t) || t.length < 3) continue;
    for (const w of words(t)) if (w.length >= 3 && !GENERIC.has(w) && !isStopword(w)) out.add(w);
  }
  return [...out];
}

/** Names whose adjective shares too little of its spelling to be found by prefix ("France", "French"). */
const DEMONYMS: Record<string, string> = {
  french: 'france',
  dutch: 'netherlands',
  british: 'britain',
  swiss: 'switzerland',
  greek: 'greece',
  welsh: 'wales',
  scottish: 'scotland',
  irish: 'ireland',
  danish: 'denmark',
  swedish: 'sweden',
  finnish: 'finland',
  polish: 'poland',
  turkish: 'turkey',
  norwegian: 'norway',
  filipino: 'philippines',
};

/** Two spellings of one name: equal, or a shared prefix of 3+ letters, most of the shorter ("Spain", "Spanish"). */
function sameName(x: string, y: string): boolean {
  if (x === y || DEMONYMS[x] === y || DEMONYMS[y] === x) return true;
  let common = 0;
  while (common < x.length && common < y.length && x[common] === y[common]) common += 1;
  return common >= 3 && common >= 0.6 * Math.min(x.length, y.length);
}

/** Whether a text mentions a name: the word, its stem, a longer form of it, or its initials. */
export function mentionsName(text: string, name: string): boolean {
  if (mentions(text, name)) return true;
  const s = stem(name);
  return words(text).some((w) => sameName(stem(w), s) || sameName(w, name));
}
