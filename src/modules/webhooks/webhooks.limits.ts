/** Most fills one indexer delivery may carry (about 0.6 MB of JSON, inside the 1 MB body limit). */
export const MAX_FILL_BATCH = 1000;
