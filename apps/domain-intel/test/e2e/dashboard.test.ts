import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { DomainIntelClient, hasCode } from '@repo/sdk';
import { databaseTargets } from '@repo/server-kit/testing';
import { browserSkipReason, launchBrowser, screenshot } from '@repo/server-kit/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { feedRow } from '../feed-helpers.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

const skip = browserSkipReason();
const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const TLDS = ['com', 'net', 'org', 'io', 'xyz'];
const EMAIL = 'ada@example.com';

/** A month of drops over five TLDs and a month of API use, so the charts have something to show. */
async function seed(t: TestApp, accountId: string): Promise<void> {
  const rows = Array.from({ length: 600 }, (_, i) =>
    feedRow(`brand${String(i).padStart(3, '0')}.${TLDS[i % 5]}`, {
      // Twenty a day over 30 days, every TLD every day, at varying hours.
      dropped_at: NOW - Math.floor(i / 20) * DAY - (i % 7) * 3_600_000,
      da: (i * 7) % 60,
      tf: (i * 3) % 40,
      first_archived_at: NOW - ((i % 15) + 1) * 365 * DAY,
    }),
  );
  for (let start = 0; start < rows.length; start += 200) {
    await t.app.ctx.database.db
      .insertInto('feed_domains')
      .values(rows.slice(start, start + 200))
      .execute();
  }
  const history = Array.from({ length: 29 }, (_, i) => ({
    account_id: accountId,
    day: new Date(NOW - (29 - i) * DAY).toISOString().slice(0, 10),
    used: 200 + Math.round(150 * Math.sin(i / 3) + i * 12),
  }));
  await t.app.ctx.database.db.insertInto('quota_usage').values(history).execute();
}

/**
 * A customer in Chromium: signs in, watches usage rise after API calls made with the SDK,
 * rotates their key, and filters the dropped feed.
 */
describe('account dashboard in a browser', { skip }, () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let page: Page;
  let key: string;

  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, env: { FEED_COUNT_CACHE_SECONDS: '0' } });
    const { account, key: issued } = await t.app.ctx.accounts.signUp({ email: EMAIL, plan: 'starter' });
    key = issued.key;
    await seed(t, account.account_id);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as import('node:net').AddressInfo).port}`;
    browser = await launchBrowser();
    page = await (
      await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true })
    ).newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const usedToday = async () => Number(await page.getByTestId('used-today').textContent());
  const chartData = (id: string) =>
    page.evaluate((canvasId) => {
      const chart = (
        window as unknown as {
          Chart: { getChart(id: string): { data: { datasets: Array<{ label: string; data: number[] }> } } };
        }
      ).Chart.getChart(canvasId);
      return chart?.data.datasets.map((dataset) => ({ label: dataset.label, data: dataset.data }));
    }, id);

  it('signs in and sees usage rise after API calls', async () => {
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByLabel('E-mail', { exact: true }).fill(EMAIL);
    await page.getByLabel('API key').fill(key);
    await screenshot(page, 'dashboard-sign-in', { fullPage: false });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    assert.equal(await usedToday(), 0);

    const client = new DomainIntelClient({ baseUrl, apiKey: key });
    for (let i = 0; i < 3; i++) await client.domains({ limit: 5 });
    await page.reload();
    assert.equal(await usedToday(), 3);
    const usage = await chartData('usage-chart');
    assert.equal(usage?.[0]?.data.at(-1), 3, 'the chart drew today’s calls');
    assert.deepEqual(usage?.[1]?.data.slice(0, 2), [1000, 1000], 'and the Starter cap');
    await screenshot(page, 'dashboard-overview');
  });

  it('rotates the key: the new one is shown once and works, the old one is refused', async () => {
    await page
      .getByRole('row', { name: /default/ })
      .getByRole('button', { name: 'Rotate' })
      .click();
    const newKey = (await page.getByTestId('new-key').textContent())!.trim();
    assert.match(newKey, /^di_live_/);
    assert.notEqual(newKey, key);
    await screenshot(page, 'dashboard-key-rotated', { fullPage: false });

    const old = await new DomainIntelClient({ baseUrl, apiKey: key }).quota().catch((error: unknown) => error);
    assert.ok(hasCode(old, 'key_revoked'));
    assert.equal((await new DomainIntelClient({ baseUrl, apiKey: newKey }).quota()).plan, 'starter');
    await page.goto(`${baseUrl}/dashboard`);
    assert.equal(await page.getByTestId('new-key').count(), 0, 'coming back does not show it again');
  });

  it('filters the dropped feed, charts the drops and downloads the CSV', async () => {
    await page.getByRole('link', { name: 'Dropped feed' }).click();
    await page.getByTestId('feed-total').waitFor();
    assert.equal(await page.getByTestId('feed-total').textContent(), '600');
    const everyTld = await chartData('drops-chart');
    assert.deepEqual(everyTld?.map((series) => series.label).sort(), ['.com', '.io', '.net', '.org', '.xyz']);

    await page.getByLabel('.net').check();
    await page.getByLabel('.org').check();
    await page.getByLabel('Min. DA').fill('30');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/min_da=30/);
    const expected = Array.from({ length: 600 }, (_, i) => i).filter(
      (i) => [1, 2].includes(i % 5) && (i * 7) % 60 >= 30,
    );
    assert.equal(await page.getByTestId('feed-total').textContent(), String(expected.length));
    const domains = await page.getByTestId('feed-table').locator('tbody tr td:first-child').allTextContents();
    assert.ok(domains.length > 0 && domains.every((domain) => /\.(net|org)$/.test(domain)));
    const filtered = await chartData('drops-chart');
    assert.deepEqual(
      filtered?.map((series) => series.label),
      ['.net', '.org'],
    );
    await screenshot(page, 'dashboard-feed', { fullPage: false });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\n');
    assert.equal(lines.length, 1 + Math.min(100, expected.length), 'Starter downloads the first 100 rows');
    assert.ok(lines.slice(1).every((line) => /^brand\d{3}\.(net|org),/.test(line)));
  });
});
