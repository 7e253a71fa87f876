import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../support/app';
import { describeInBrowser, launchChromium, offOrigin, recordPage, type PageRecord } from '../../support/browser';

/**
 * The two browser pages of the server, /docs (Swagger UI) and /graphql (GraphiQL), in real
 * Chromium: they render from the server alone (no request leaves it, no CSP violation) and work
 * against it.
 */
describeInBrowser('browser pages in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let record: PageRecord;

  beforeAll(async () => {
    app = await startTestApp({ GRAPHIQL: 'true', API_DOCS: 'true' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage();
    record = recordPage(page);
  });

  afterEach(async () => {
    await page.close();
  });

  function expectStayedHome(): void {
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(offOrigin(record, app.url)).toEqual([]);
    expect(record.errors).toEqual([]);
  }

  /** The operation block of `method path` on the docs page, opened. */
  async function openOperation(method: string, path: string) {
    const block = page.locator(`.opblock-${method.toLowerCase()}`, {
      has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
    });
    await block.locator('.opblock-summary-control').click();
    return block;
  }

  it('/docs renders every operation of /openapi.json from the server alone', async () => {
    const spec = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(operations.length).toBeGreaterThan(90);

    await page.goto(`${app.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    // Swagger UI lists an operation under each of its tags: compare the distinct ones.
    // (Page scripts are strings: the project's TypeScript has no DOM types.)
    const rendered = await page.evaluate<string[]>(
      `[...document.querySelectorAll('.opblock')].filter((b) => b.querySelector('[data-path]')).map((b) =>
        b.querySelector('.opblock-summary-method').textContent.toLowerCase() + ' ' +
        b.querySelector('[data-path]').getAttribute('data-path'))`,
    );
    expect([...new Set(rendered)].sort()).toEqual([...operations].sort());
    expect(await page.locator('.opblock-summary-path[data-path="/api/events"]').count()).toBeGreaterThan(0);
    await expect(page.locator('.info .title').textContent()).resolves.toContain('Prediction-market aggregator');
    expectStayedHome();
  });

  it('/docs try-it-out runs GET /api/events against the server', async () => {
    await page.goto(`${app.url}/docs`);
    const block = await openOperation('get', '/api/events');
    await block.locator('button.try-out__btn').click();
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    const body = await block.locator('.live-responses-table .response-col_description pre').first().textContent();
    expect(JSON.parse(body ?? '')).toMatchObject({ page: 1, total: expect.any(Number) });
    expectStayedHome();
  });

  it('/docs try-it-out sends the bearer entered under Authorize', async () => {
    const token = await app.token('docs-user');
    const sent: (string | undefined)[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/portfolio') sent.push(req.headers().authorization);
    });
    await page.goto(`${app.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    await page.locator('button.authorize').first().click();
    const bearer = page.locator('.auth-container', { has: page.locator('h4:has-text("bearerAuth")') });
    await bearer.locator('input').fill(token);
    await bearer.locator('button.authorize').click();
    await page.locator('.dialog-ux button.close-modal').click();

    const block = await openOperation('get', '/api/portfolio');
    await block.locator('button.try-out__btn').click();
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    expect(sent).toEqual([`Bearer ${token}`]);
    expectStayedHome();
  });

  it('GraphiQL opens with the example screens as named tabs, and runs the first', async () => {
    await page.goto(`${app.url}/graphql`);
    const tabs = page.locator('.graphiql-tab-button');
    await tabs.first().waitFor();
    const names = (await tabs.allTextContents()).map((t) => t.trim());
    expect(names).toEqual(['ListEvents', 'GetEvent', 'MarketDetail', 'PortfolioOverview', 'Home', 'Trades']);

    await page.locator('.graphiql-execute-button').click();
    // The result editor renders only the visible lines: read its whole text through CodeMirror.
    // (Polled with evaluate: waitForFunction would evaluate a string in the page, which its CSP forbids.)
    let resultText = '';
    const deadline = Date.now() + 20_000;
    while (!resultText.includes('"total"')) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for GraphiQL's result (shows: ${resultText})`);
      await page.waitForTimeout(100);
      resultText = await page.evaluate<string>(
        `document.querySelector('.graphiql-response .CodeMirror')?.CodeMirror?.getValue() ?? ''`,
      );
    }
    const result = JSON.parse(resultText) as {
      data?: { events: { data: unknown[]; page: number; total: number } };
    };
    expect(result.data?.events).toMatchObject({ page: 1, total: expect.any(Number) });
    expect(result.data?.events.data.length).toBe(10);

    // The portfolio tab shows where the bearer goes, in its headers editor.
    await tabs.nth(3).click();
    await page.locator('button:has-text("Headers")').click();
    await expect(page.locator('.graphiql-editor-tool').textContent()).resolves.toContain('Bearer <token>');
    expectStayedHome();
  });
});
