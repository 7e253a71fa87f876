import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Real-browser tests drive the system's Chromium (Debian's `chromium` package) through
 * playwright-core, which downloads nothing. Without the browser they skip with this reason.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests skip here, or undefined when Chromium is installed. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM_PATH)
    ? undefined
    : `Chromium not found at ${CHROMIUM_PATH} (install Debian's chromium or set CHROMIUM_PATH): browser tests skipped`;
}

/** `describe`, or `describe.skip` with the reason printed once when Chromium is absent. */
export function describeInBrowser(name: string, fn: () => void): void {
  const missing = browserMissing();
  if (missing !== undefined) {
    process.stderr.write(`${missing}\n`);
    describe.skip(name, fn);
    return;
  }
  describe(name, fn);
}

/** Headless Chromium with nothing of its own reaching the network (no updates, sync or QUIC). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What a page did: every URL it requested, and its console errors (CSP violations among them). */
export interface PageRecord {
  requests: string[];
  errors: string[];
}

/** Records every request and console error of `page` from now on. */
export function recordPage(page: Page): PageRecord {
  const record: PageRecord = { requests: [], errors: [] };
  page.on('request', (req) => record.requests.push(req.url()));
  page.on('console', (msg) => {
    if (msg.type() === 'error') record.errors.push(msg.text());
  });
  page.on('pageerror', (err) => record.errors.push(err.message));
  return record;
}

/** The requests of `record` that left `origin` (data: URLs stay in the page). */
export function offOrigin(record: PageRecord, origin: string): string[] {
  return record.requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
}
