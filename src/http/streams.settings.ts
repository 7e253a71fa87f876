import { defineSettings, prose, setting } from '../settings';

/** Server-sent-event streams: caps per client address and in total, slow readers, graphql-sse reservations. */
export const streamsSettings = defineSettings({
  name: 'streams',
  title: 'Streams',
  variables: {
    STREAMS_PER_ADDRESS: setting.integer(
      1,
      1_000_000,
      100,
      'concurrent server-sent-event streams per client address, per process (429 beyond)',
    ),
    STREAMS_TOTAL: setting.integer(1, 10_000_000, 10_000, 'concurrent streams in total, per process (429 beyond)'),
    STREAM_MAX_BUFFER_BYTES: setting.integer(
      1_024,
      1_073_741_824,
      1_048_576,
      'bytes a stream client may leave unread (queued by the server) before it is dropped',
    ),
    SSE_RESERVATIONS_PER_ADDRESS: setting.integer(
      1,
      1_000_000,
      100,
      'outstanding graphql-sse reservations (`PUT /graphql/stream`) per client address (429 beyond)',
    ),
    SSE_RESERVATIONS_TOTAL: setting.integer(1, 10_000_000, 10_000, 'outstanding reservations in total'),
    SSE_RESERVATION_TTL_SECONDS: setting.integer(
      1,
      3_600,
      30,
      'how long a reservation waits for its stream to open before it is dropped',
    ),
    SSE_MAX_OPERATIONS_PER_STREAM: setting.integer(
      1,
      10_000,
      20,
      prose`live operations one graphql-sse stream (single-connection mode: one reservation) carries; the next
        \`POST\` is 429 until one ends. Each operation beyond a stream's first also takes one of its address's
        \`STREAMS_PER_ADDRESS\``,
    ),
  },
  map: (v) => ({
    /**
     * Server-sent-event streams: concurrent streams per client address and in total (per process),
     * the unsent bytes a client may fall behind before it is dropped, and graphql-sse reservations
     * (per address, in total, and how long an unused one is kept), and the live operations one
     * graphql-sse stream (or reservation) carries at most.
     */
    streams: {
      perAddress: v.STREAMS_PER_ADDRESS,
      total: v.STREAMS_TOTAL,
      maxBufferBytes: v.STREAM_MAX_BUFFER_BYTES,
      reservationsPerAddress: v.SSE_RESERVATIONS_PER_ADDRESS,
      reservationsTotal: v.SSE_RESERVATIONS_TOTAL,
      reservationTtlMs: v.SSE_RESERVATION_TTL_SECONDS * 1000,
      maxOperationsPerStream: v.SSE_MAX_OPERATIONS_PER_STREAM,
    },
  }),
});
