import { createHmac, randomBytes } from 'node:crypto';
import type { Venue } from '../venue.models';
import { hashString, hexFrom, uuidFrom } from './prng';

/** Length of a world secret, bytes (256 bits). */
export const SIM_SECRET_BYTES = 32;

/**
 * Where the simulated world's randomness comes from. Every stream of the world
 * (the catalog's draws, each market's book, trades and price path, the live
 * trades) and every identifier it publishes (event, market, order and trade
 * ids, wallet addresses) is derived from these by a label naming the stream;
 * the same keys give the same world.
 */
export interface WorldKeys {
  /** Names the world without revealing its secret: equal for worlds built from the same keys. */
  readonly fingerprint: string;
  /** A 32-bit seed for the numeric stream `label` (for the fast hash functions of `prng.ts`). */
  seed(label: string): number;
  /** `chars` (at most 64) lowercase hex characters of the identifier `label`. */
  hex(label: string, chars: number): string;
  /** An RFC 4122-shaped (version 4) UUID of the identifier `label`. */
  uuid(label: string): string;
  /** The seed of the live trade generator's stream. */
  liveSeed(): number;
  /** The id of a market's `i`-th public trade in `hour` (venue_a: `0x` + 64 hex; venue_b: a UUID). */
  tradeId(m: { venue: Venue; venueMarketId: string; seed: number }, hour: number, i: number): string;
}

/**
 * A world keyed by a 256-bit secret (production, or SIM_SECRET): seeds and
 * identifiers are HMAC-SHA-256(secret, label), with `seed:` and `id:` keeping
 * the two apart. Nothing the world publishes leads back to the secret or from
 * one stream to another. A numeric stream runs on the 32-bit seed it draws
 * (the hash functions run millions of times per series or listing): a seed
 * searched out of one stream's public values reveals that stream only.
 */
export class SecretKeys implements WorldKeys {
  private readonly secret: Buffer;

  constructor(secret: Buffer) {
    if (secret.length !== SIM_SECRET_BYTES) throw new Error(`a world secret is ${SIM_SECRET_BYTES} bytes`);
    this.secret = Buffer.from(secret);
  }

  /** A fresh random secret. */
  static random(): SecretKeys {
    return new SecretKeys(randomBytes(SIM_SECRET_BYTES));
  }

  get fingerprint(): string {
    return this.mac('fingerprint').toString('hex', 0, 8);
  }

  seed(label: string): number {
    return this.mac(`seed:${label}`).readUInt32BE(0);
  }

  hex(label: string, chars: number): string {
    if (chars > 64) throw new Error('at most 64 hex characters per label');
    return this.mac(`id:${label}`)
      .toString('hex', 0, Math.ceil(chars / 2))
      .slice(0, chars);
  }

  uuid(label: string): string {
    const b = this.mac(`id:${label}`);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex', 0, 16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  }

  liveSeed(): number {
    return this.seed('live-trades');
  }

  tradeId(m: { venue: Venue; venueMarketId: string }, hour: number, i: number): string {
    const label = `trade|${m.venue}|${m.venueMarketId}|${hour}|${i}`;
    return m.venue === 'venue_a' ? `0x${this.hex(label, 64)}` : this.uuid(label);
  }

  /** The secret as hex, for the one place the processes of a deployment share it (see `openSimulatedWorld`). */
  exportHex(): string {
    return this.secret.toString('hex');
  }

  private mac(message: string): Buffer {
    return createHmac('sha256', this.secret).update(message, 'utf8').digest();
  }
}

/**
 * A numbered demo world (SIM_SEED, outside production): public by design, so
 * anyone can rebuild it, and the same number builds the same world every run
 * (tests and demos pin its prices and ids; stored trades keep their ids). Its
 * derivations are fast 32-bit hashes of the number and the label. Never where
 * money is real: production always has a secret.
 */
export class SeedKeys implements WorldKeys {
  readonly fingerprint: string;

  constructor(private readonly n: number) {
    this.n = n >>> 0;
    this.fingerprint = `seed-${this.n}`;
  }

  seed(label: string): number {
    return hashString(label, this.n);
  }

  hex(label: string, chars: number): string {
    return hexFrom(`${this.n}|${label}`, chars);
  }

  uuid(label: string): string {
    return uuidFrom(`${this.n}|${label}`);
  }

  liveSeed(): number {
    return this.n;
  }

  tradeId(m: { venue: Venue; venueMarketId: string; seed: number }, hour: number, i: number): string {
    const key = `${m.seed}|${m.venueMarketId}|${hour}|${i}`;
    return m.venue === 'venue_a' ? `0x${hexFrom(key, 64)}` : uuidFrom(key);
  }
}

/** The keys of the configured world: the secret when there is one, else the demo seed. */
export function worldKeysOf(sim: { secret?: Buffer; seed: number }): WorldKeys {
  return sim.secret ? new SecretKeys(sim.secret) : new SeedKeys(sim.seed);
}
