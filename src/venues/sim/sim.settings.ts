import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineSettings, optionalString, prose, setting } from '../../settings';
import { SIM_SECRET_BYTES } from './sim-keys';

/** The simulated world: its live trades, the demo world's number, and the secret a production world is keyed by. */
export const simSettings = defineSettings({
  name: 'sim',
  title: 'Simulated world',
  variables: {
    SIM_TRADE_RATE: setting.number(0, 10_000, 2, 'simulated live trades per second (0 = off)'),
    SIM_SEED: setting.integer(
      0,
      2 ** 31 - 1,
      42,
      prose`the demo world's number: the same number builds the same world every run (public by design; ignored
        with \`NODE_ENV=production\` or when \`SIM_SECRET\` is set)`,
    ),
    SIM_SECRET: setting.custom(
      optionalString.pipe(
        z
          .string()
          .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (a 256-bit secret)')
          .optional(),
      ),
      {
        meaning: prose`the simulated world's secret: every stream and identifier of the world is HMAC-SHA-256 of it
          ([security](security.md#paper-trading)). Unset with \`NODE_ENV=production\`: a random one, drawn by the
          first process to meet the database and kept there so every process builds the same world; set it on
          every process to keep it out of the database`,
        default: 'unset',
        accepted: `${SIM_SECRET_BYTES * 2} hex characters (${SIM_SECRET_BYTES * 8} bits)`,
        invalid: 'abcd',
      },
    ),
    SIM_BACKFILL_TRADES: setting.integer(
      0,
      1000,
      40,
      prose`recent public trades per market stored when an empty database is seeded (leaderboard, trader
        histories)`,
    ),
  },
  map: (v, ctx) => ({
    /**
     * `backfillTrades`: recent public trades per market loaded when an empty database is seeded.
     * `secret`: the simulated world's 256-bit secret (every stream of the world is keyed by it):
     * SIM_SECRET, else in production a random one; unset outside production, where the world is the
     * demo world numbered `seed` (SIM_SEED), which anyone can rebuild. `shareSecret` (production
     * without SIM_SECRET): the first process to meet the database records its random secret there,
     * so every process of a deployment builds the same world.
     */
    sim: {
      tradeRate: v.SIM_TRADE_RATE,
      seed: v.SIM_SEED,
      secret:
        v.SIM_SECRET !== undefined
          ? Buffer.from(v.SIM_SECRET, 'hex')
          : ctx.production
            ? randomBytes(SIM_SECRET_BYTES)
            : undefined,
      backfillTrades: v.SIM_BACKFILL_TRADES,
      shareSecret: ctx.production && v.SIM_SECRET === undefined,
    },
  }),
});
