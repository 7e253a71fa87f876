import { defineSettings, prose, setting } from '../../settings';

const FORMER_CACHE_BYTES = 33_554_432;
const formerCache = (name: string) =>
  setting.integer(
    1_024,
    4_294_967_296,
    FORMER_CACHE_BYTES,
    prose`${name}: one of the two caches the answer cache replaced, read only while \`ANSWER_CACHE_MAX_BYTES\` is
      unset, which then bounds it by their sum`,
  );

/** The per-process read caches: the answer cache (every transport's shared answers) and the modules' memos. */
export const readCachesSettings = defineSettings({
  name: 'readCaches',
  title: 'Read caches',
  variables: {
    READ_CACHE_TTL_MS: setting.integer(
      1_000,
      3_600_000,
      30_000,
      prose`how long an answer of the answer cache (public reads, cached REST routes) or an entry of a module's
        catalog memo lives at most when the message that clears it is missed; the admin cache policy reports it`,
    ),
    ANSWER_CACHE_MAX_BYTES: setting.optionalInteger(1_024, 4_294_967_296, {
      meaning: prose`bytes of answers the answer cache keeps per process, for every transport (each answer: its key,
        its serializations and ETag, the headers it was written with), least recently used first out, at most
        5,000 answers; an answer larger than this is served but not kept. The pre-Express fast path writes from the
        same entries`,
      default: '`REST_MEMO_MAX_BYTES` + `PUBLIC_READ_CACHE_MAX_BYTES`: `67108864` (64 MiB)',
      example: '67108864',
    }),
    REST_MEMO_MAX_BYTES: formerCache('the REST memo'),
    PUBLIC_READ_CACHE_MAX_BYTES: formerCache('the public-read cache'),
  },
  map: (v) => ({
    /**
     * Per-process read caches: how long an answer of the answer cache or an entry of a module's
     * catalog memo lives at most when no invalidation reaches it (ms), and the bytes of answers the
     * answer cache keeps at most (least recently used first out).
     */
    readCaches: {
      ttlMs: v.READ_CACHE_TTL_MS,
      // Unset: the two settings it replaces, together, so a deployment keeps its bound.
      answerMaxBytes: v.ANSWER_CACHE_MAX_BYTES ?? v.REST_MEMO_MAX_BYTES + v.PUBLIC_READ_CACHE_MAX_BYTES,
    },
  }),
});
