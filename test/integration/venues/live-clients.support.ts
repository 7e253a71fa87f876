import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig, type VenuesConfig } from '../../../src/config';
import type { Logger } from '../../../src/http/logger';
import { createInfra, type Infra } from '../../../src/infra';
import { startFakeVenues, type FakeVenues } from '../../support/fake-venues';

/** A logger whose lines the test can read. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** The venue settings pointing at the fake, with short timeouts (overridable with VENUE_* values). */
export function venuesConfig(fake: FakeVenues, env: Record<string, string> = {}): VenuesConfig {
  return loadConfig({
    ...fake.env,
    VENUE_HTTP_TIMEOUT_MS: '2000',
    VENUE_HTTP_RETRIES: '2',
    VENUE_TRADES_POLL_MS: '3600000',
    ...env,
  }).venues;
}

/** The process's infra as the app would build it: Redis when REDIS_URL is set (a fresh key prefix), else in-process. */
export function testInfra(): Promise<Infra> {
  return createInfra({ redisUrl: process.env.REDIS_URL, keyPrefix: `test:venues:${randomUUID()}:` });
}

/** The fake venues and the infra for one describe block (started before it, faults cleared after each test). */
export function withFakeVenues(): { readonly fake: FakeVenues; readonly infra: Infra } {
  const ctx = {} as { fake: FakeVenues; infra: Infra };
  beforeAll(async () => {
    ctx.fake = await startFakeVenues();
    ctx.infra = await testInfra();
  });
  afterEach(() => ctx.fake.clearFaults());
  afterAll(async () => {
    await ctx.infra.close();
    await ctx.fake.close();
  });
  return ctx;
}
