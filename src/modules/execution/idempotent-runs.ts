import type { PrismaClient } from '../../db/generated/client';
import type { IdempotencyService } from '../idempotency/idempotency.service';
import { EventLog } from './event-log';
import { eventsFromOrder, reviveEvent, type ExecutionEvent } from './execution.models';
import type { TradeRecorder } from './trade-recorder';

/** A running (or replayed) execution. */
export interface ExecutionStream {
  orderId: string;
  /** True when an Idempotency-Key replays the first outcome: nothing ran again. */
  replayed: boolean;
  /** Every event from the first; stopping a reader never stops the execution. */
  events(): AsyncIterableIterator<ExecutionEvent>;
  /** The last event (`completed`, `failed` or `outcome_unknown`), once the execution ended. */
  outcome: Promise<ExecutionEvent>;
}

/** An execution just started: `done` settles with its whole event sequence. */
export interface LaunchedStream extends ExecutionStream {
  done: Promise<ExecutionEvent[]>;
}

/** One use of an Idempotency-Key: whose, for which operation, and what a retry must repeat. */
export interface KeyedCall {
  userId: string;
  operation: string;
  key: string;
  input: unknown;
}

export interface IdempotentRunsDeps {
  prisma: PrismaClient;
  idempotency: IdempotencyService;
  recorder: Pick<TradeRecorder, 'byIdempotencyKey'>;
  now: () => number;
}

/** What an Idempotency-Key keeps of an execution: its whole event sequence. */
interface StoredOutcome {
  events: ExecutionEvent[];
}

/** `s`, whose readers and outcome finish only after `later()` settles (whether it succeeds or not). */
function endingAfter(s: ExecutionStream, later: () => Promise<unknown>): ExecutionStream {
  const settled = () =>
    later().then(
      () => undefined,
      () => undefined,
    );
  return {
    ...s,
    events: async function* () {
      yield* s.events();
      await settled();
    },
    outcome: s.outcome.then(async (last) => (await settled(), last)),
  };
}

/**
 * Executions under an Idempotency-Key: the first request claims the key before its stream opens and
 * stores its event sequence when it ends; a retry replays that sequence (a different body, or a first
 * request still running, is a 409). A failure before the stream opens, or an unexpected one, frees the key.
 */
export class IdempotentRuns {
  constructor(private readonly deps: IdempotentRunsDeps) {}

  /** Runs `launch` once for `call`'s key, or replays what its first run streamed. */
  async once(call: KeyedCall, launch: () => Promise<LaunchedStream>): Promise<ExecutionStream> {
    let ready!: (s: ExecutionStream) => void;
    const started = new Promise<ExecutionStream>((resolve) => (ready = resolve));
    const stored = this.deps.idempotency.run<StoredOutcome>(call, async () => {
      // The key was claimed but no answer stored (the first request's process stopped): its order answers.
      const prior = await this.deps.recorder.byIdempotencyKey(call.userId, call.key);
      if (prior) {
        const recovered = { events: eventsFromOrder(prior, new Date(this.deps.now())) };
        ready(this.replay(recovered));
        return recovered;
      }
      const s = await launch();
      // The stream ends only once its answer is stored, so a retry sent after it always replays.
      ready(endingAfter(s, () => stored));
      return { events: await s.done };
    });
    // Its failures reach the caller through the race (before streaming) or the stream and `track` (after).
    stored.catch(() => undefined);
    return Promise.race([started, stored.then((o) => this.replayCurrent(o))]);
  }

  /**
   * The replay of a key whose first request finished (same body), or of the order it placed when its
   * process died before storing an outcome; null when there is neither.
   */
  async replayOf(call: KeyedCall): Promise<ExecutionStream | null> {
    const notStored = new Error('not stored');
    let stored: StoredOutcome;
    try {
      // Claims nothing for good: with neither an answer nor an order the work fails at once and the key is freed.
      stored = await this.deps.idempotency.run<StoredOutcome>(call, async () => {
        const prior = await this.deps.recorder.byIdempotencyKey(call.userId, call.key);
        if (!prior) throw notStored;
        return { events: eventsFromOrder(prior, new Date(this.deps.now())) };
      });
    } catch (err) {
      if (err === notStored) return null;
      throw err;
    }
    return this.replayCurrent(stored);
  }

  /**
   * A stored outcome that ended `outcome_unknown` is replayed with what became
   * of the order since (its fills and `completed`, or `failed`), appended with
   * the sequence going on, so the first run's ids stay as they were.
   */
  private async replayCurrent(o: StoredOutcome): Promise<ExecutionStream> {
    const last = o.events[o.events.length - 1];
    if (last?.event !== 'outcome_unknown') return this.replay(o);
    const row = await this.deps.prisma.order.findUnique({
      where: { id: last.orderId },
      include: { fills: { orderBy: { seq: 'asc' } } },
    });
    if (!row || row.state === 'pending' || row.state === 'submitted') return this.replay(o);
    const later = eventsFromOrder(row, new Date(this.deps.now()))
      .slice(1)
      .map((e, i) => ({ ...e, seq: last.seq + 1 + i, id: `${row.id}:${last.seq + 1 + i}` }));
    return this.replay({ events: [...o.events, ...later] });
  }

  private replay(o: StoredOutcome): ExecutionStream {
    const events = o.events.map(reviveEvent);
    const last = events[events.length - 1];
    const log = EventLog.of(events);
    return { orderId: last.orderId, replayed: true, events: () => log.reader(), outcome: Promise.resolve(last) };
  }
}
