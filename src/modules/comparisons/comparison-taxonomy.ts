/**
 * Bucket (broad topic) and subtag (finer category inside it) of a cross-venue
 * pair, from the venues' categories and wording. Rules are ordered: the first
 * pattern that matches the pair's text names the subtag.
 */

type Rule = readonly [subtag: string, pattern: RegExp];

const SUBTAGS: Record<string, readonly Rule[]> = {
  sports: [
    ['nba', /\bNBA\b/],
    ['nfl', /\bNFL\b|Super Bowl/i],
    ['mlb', /\bMLB\b|World Series/i],
    ['premier-league', /Premier League/i],
    ['champions-league', /Champions League/i],
    ['formula-1', /\bF1\b|Formula (?:1|One)|Grand Prix|Drivers'? Champion/i],
    ['soccer', /\bfootball club\b|\bFC\b|La Liga|Bundesliga|Serie A/],
    ['tennis', /\btennis\b|Wimbledon|\bUS Open\b|Roland Garros/i],
  ],
  politics: [
    ['approval-ratings', /\bapproval\b/i],
    ['government-funding', /shut ?down|appropriations/i],
    ['legislation', /signed into law|\bbill\b|\blaw\b|legislation|\bban\b/i],
    ['elections', /election|governor|presidential|primar(?:y|ies)|ballot|\bvot(?:e|ing)\b/i],
  ],
  crypto: [
    ['stablecoins', /\bUSDT\b|\bUSDC\b|Tether|stablecoin|depeg/i],
    ['etf', /\bETFs?\b/],
    ['corporate-treasuries', /MicroStrategy|\bStrategy\b|treasury/],
    // Bitcoin last: other assets' questions often mention it as the yardstick.
    ['ethereum', /\bEthereum\b|\bETH\b/i],
    ['solana', /\bSolana\b|\bSOL\b/],
    ['xrp', /\bXRP\b/],
    ['dogecoin', /\bDogecoin\b|\bDOGE\b/i],
    ['cardano', /\bCardano\b|\bADA\b/],
    ['bitcoin', /\bBitcoin\b|\bBTC\b/i],
  ],
  economics: [
    ['inflation', /\bCPI\b|inflation|\bPCE\b/i],
    ['employment', /unemployment|jobs report|payrolls/i],
    ['fed-rates', /\bFed\b|\bFOMC\b|federal funds|interest rate/i],
    ['recession', /recession/i],
    ['gdp', /\bGDP\b/],
    ['energy', /\bgas(?:oline)?\b|\boil\b|crude/i],
    ['equities', /S&P|Nasdaq|\bDow\b|stock index/i],
  ],
  tech: [
    ['stocks', /closing price|market cap|largest company|\([A-Z]{2,5}\)/i],
    ['ai', /\bAI\b|\bGPT|Gemini|Grok|LMArena|\bmodel\b/],
    ['product-launches', /releas|launch|iPhone|Grand Theft Auto|\bGTA\b/i],
  ],
  science: [
    ['space', /Starship|SpaceX|Artemis|\borbit|rocket|Moon\b/i],
    ['earthquakes', /earthquake|magnitude/i],
    ['weather', /snowfall|\bsnow\b|\bstorms?\b|hurricane/i],
    ['climate', /temperature|hottest|warmest|sea ice|climate/i],
  ],
  culture: [
    ['box-office', /box office|opening weekend|opening gross|\bgross(?:es)?\b/i],
    ['awards', /Oscars?|Academy Awards|Emmys?|Game Awards|Grammys?|Golden Globes?|Best Picture/i],
    ['music', /Spotify|Eurovision|\bsong\b|\bartist\b|\balbum\b/i],
  ],
};

/** Category names venues use for the same bucket. */
const BUCKET_ALIASES: Record<string, string> = {
  finance: 'economics',
  economy: 'economics',
  macro: 'economics',
  'science & tech': 'tech',
  technology: 'tech',
  entertainment: 'culture',
  'pop culture': 'culture',
  cryptocurrency: 'crypto',
  election: 'politics',
  elections: 'politics',
};

/** The broad topic of a venue category ("Economy" → `economics`). */
export function bucketOf(category: string | null | undefined): string | null {
  const c = category?.trim().toLowerCase();
  if (!c) return null;
  return BUCKET_ALIASES[c] ?? c;
}

/**
 * The first matching subtag of `bucket`, tried on each text in turn (titles
 * first: descriptions mention side details such as a quote currency); `other`
 * when none matches.
 */
export function subtagOf(bucket: string | null, texts: readonly string[]): string | null {
  if (bucket === null) return null;
  const rules = SUBTAGS[bucket];
  if (!rules) return 'other';
  for (const text of texts) {
    for (const [subtag, pattern] of rules) if (pattern.test(text)) return subtag;
  }
  return 'other';
}
