import type { ListEventsQuery } from '../../../schema/generated/operations';
import { CatalogJob } from '../../../src/modules/ingestion/catalog-job';
import type { SyncReport } from '../../../src/modules/ingestion/catalog.service';
import { http, NO_BACKGROUND_TIMERS, startTestApp, type TestApp } from '../../support/app';
import { loadVenueFixtures, startFakeVenues, type FakeVenues } from '../../support/fake-venues';
import { gammaEvent, kalshiEvent, loadLabeledSet } from '../../support/labeled-pairs';
import { eventually } from '../../support/wait';

/**
 * VENUE_SOURCE=live, the catalog job on the Fed pair a trader pairs at a glance: venue_a asks "Will
 * the Fed cut interest rates in March 2027?" (end date 2027-03-27), venue_b "Fed rate cut at the
 * March 2027 FOMC meeting?" (close 2027-03-25). They merge; the near misses (the same question for
 * the May meeting; above 4.00% against above 4.25%) stay apart, each decision saying in words what
 * agreed and what did not; an admin split still holds over the matcher.
 */
type Page = ListEventsQuery['events'];
type Decision = { venueAEventId: string; venueBEventId: string; decision: string; reason: string; pinned: boolean };

const ADMIN = { 'x-admin-token': 'catalog-matching-admin' };
const FED_A = 'pm-fed-cut-mar-2027';
const FED_B = 'KXFEDCUT-27MAR';
const MAY_B = 'KXFEDCUT-27MAY';
const RATE_400_A = 'pm-ffr-4.00-mar-2027';
const RATE_425_B = 'KXFED-27MAR-T4.25';

let fake: FakeVenues;
let app: TestApp;

beforeAll(async () => {
  const set = loadLabeledSet();
  const data = loadVenueFixtures();
  data.venueA.events.push(...set.venueA.filter((e) => [FED_A, RATE_400_A].includes(e.id)).map(gammaEvent));
  data.venueB.events.push(
    ...set.venueB.filter((e) => [FED_B, MAY_B, RATE_425_B].includes(e.event_ticker)).map(kalshiEvent),
  );
  fake = await startFakeVenues({ data });
  app = await startTestApp({
    ...fake.env,
    ...NO_BACKGROUND_TIMERS,
    ADMIN_TOKEN: ADMIN['x-admin-token'],
    CATALOG_SYNC_MS: '0',
    VENUE_TRADES_POLL_MS: '3600000',
    // A pooled connection the fake closed while the app was idle is retried once (GETs retry network errors).
    VENUE_HTTP_RETRIES: '1',
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

async function events(): Promise<Page['data']> {
  const r = await http(`${app.url}/api/events?pageSize=100`);
  expect(r.status).toBe(200);
  return (r.body as Page).data;
}

async function decisions(venueEventId: string): Promise<Decision[]> {
  const r = await http(`${app.url}/api/admin/catalog/decisions?venueEventId=${encodeURIComponent(venueEventId)}`, {
    headers: ADMIN,
  });
  expect(r.status).toBe(200);
  return (r.body as { data: Decision[] }).data;
}

/**
 * One catalog sync that wrote. On a shared PostgreSQL server another test's catalog job may hold
 * the catalog lock at that moment: that run skips (as a second process would), so try again.
 */
function sync(): Promise<SyncReport> {
  return eventually(
    async () => {
      const report = await app.services.get(CatalogJob).run();
      return report.skipped ? undefined : report;
    },
    'a catalog sync that was not skipped',
    30_000,
  );
}

const holding = (all: Page['data'], marketId: string) =>
  all.find((e) => e.markets.some((m) => m.marketId === marketId));

describe('the catalog job on the Fed pair and its near misses', () => {
  it('merges the March pair, with the terms that agreed in words', async () => {
    const report = await sync();
    expect(report).toMatchObject({ failedVenues: [], skipped: false });
    const all = await events();
    const fed = holding(all, `${FED_B}-CUT`);
    expect(fed).toMatchObject({ title: 'Will the Fed cut interest rates in March 2027?', sourceType: 'matched' });
    expect(fed!.markets.map((m) => m.venue).sort()).toEqual(['venue_a', 'venue_b']);

    const merge = (await decisions(FED_A)).find((d) => d.venueBEventId === FED_B);
    expect(merge).toMatchObject({ decision: 'merge', pinned: false });
    expect(merge!.reason).toMatch(/^Merged: similarity \d\.\d{3}/);
    expect(merge!.reason).toMatch(/the period agrees \(March 2027\)/);
    expect(merge!.reason).toMatch(
      /close times agree \(venue_a 2027-03-27 00:00 UTC, venue_b 2027-03-25 00:00 UTC: both within March 2027/,
    );
    expect(merge!.reason).toMatch(/the rate decision agrees \(cut\)/);
  });

  it('keeps the May meeting and the other strike apart, saying what differs', async () => {
    const all = await events();
    expect(holding(all, `${MAY_B}-CUT`)).toMatchObject({ sourceType: 'venue_b_only' });
    expect(holding(all, RATE_425_B)).toMatchObject({ sourceType: 'venue_b_only' });
    expect(all.find((e) => e.title === 'Fed funds rate above 4.00% after the March 2027 meeting?')).toMatchObject({
      sourceType: 'venue_a_only',
    });

    const may = (await decisions(FED_A)).find((d) => d.venueBEventId === MAY_B);
    expect(may).toMatchObject({ decision: 'separate' });
    expect(may!.reason).toMatch(/^Kept apart: similarity \d\.\d{3}.*the matcher finds similar/);
    expect(may!.reason).toMatch(/the period differs \(March 2027 on venue_a, May 2027 on venue_b\)/);

    const strike = (await decisions(RATE_400_A)).find((d) => d.venueBEventId === RATE_425_B);
    expect(strike).toMatchObject({ decision: 'separate' });
    expect(strike!.reason).toMatch(/the strikes differ \(4 on venue_a, 4\.25 on venue_b\)/);
    expect(strike!.reason).toMatch(/the period agrees \(March 2027\)/);
  });

  it("an admin split of the pair holds over the matcher's merge at the next sync", async () => {
    const split = await http(`${app.url}/api/admin/catalog/split`, {
      method: 'POST',
      headers: ADMIN,
      json: { venue: 'venue_b', venueEventId: FED_B, reason: 'checking the rules' },
    });
    expect(split.status).toBe(200);
    expect(split.body).toMatchObject({ decision: 'separate', origin: 'admin', pinned: true });
    await sync();
    const all = await events();
    expect(holding(all, `${FED_B}-CUT`)).toMatchObject({ sourceType: 'venue_b_only' });
    const pinned = (await decisions(FED_A)).find((d) => d.venueBEventId === FED_B);
    expect(pinned).toMatchObject({
      decision: 'separate',
      pinned: true,
      reason: 'Split by an administrator: checking the rules',
    });
  });
});
