import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, testTimeoutEnv } from '@repo/server-kit/testing';
import { browserSkipReason, launchBrowser, screenshot } from '@repo/server-kit/testing/browser';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import type { Browser, Page } from 'playwright-core';
import { feedRow } from '../feed-helpers.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { simRdapEnv } from '../rdap-helpers.ts';
import { startReceiver, type WebhookReceiver } from '../webhook-receiver.ts';

const skip = browserSkipReason();
const EMAIL = 'investor@example.com';
const PHONE = { width: 390, height: 844 };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * An Enterprise investor in Chromium: adds webhook targets, saves filters (from the form and
 * from the feed explorer), reads the delivery log and sends a dead batch again, and watches
 * names through their drop. Every form carries the dashboard's CSRF token.
 */
describe('saved filters, targets, deliveries and the watchlist in a browser', { skip }, () => {
  let t: TestApp;
  let sim: UpstreamSim;
  let receiver: WebhookReceiver;
  let down: WebhookReceiver;
  let baseUrl: string;
  let browser: Browser;
  let page: Page;
  let phone: Page;
  let key: string;

  before(async () => {
    sim = await startUpstreamSim();
    receiver = await startReceiver();
    down = await startReceiver();
    down.answer('fail');
    t = await createTestApp({
      target: databaseTargets()[0]!,
      env: simRdapEnv(sim, {
        FEED_COUNT_CACHE_SECONDS: '0',
        TRACKED_TLDS: 'com,net,org',
        DELIVERY_TIMEOUT_MS: testTimeoutEnv(2_000),
        // The test moves the clock over days of retries: the session must outlive them.
        DASHBOARD_SESSION_HOURS: '720',
      }),
    });
    ({
      key: { key },
    } = await t.app.ctx.accounts.signUp({ email: EMAIL, plan: 'enterprise' }));
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
    phone = await (await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })).newPage();
    for (const tab of [page, phone]) {
      await tab.goto(`${baseUrl}/dashboard`);
      await tab.getByLabel('E-mail', { exact: true }).fill(EMAIL);
      await tab.getByLabel('API key').fill(key);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    }
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
    await down?.close();
    await sim?.close();
  });

  const nav = () => page.locator('nav.dash-nav');

  /** The same page at 390 px, for the phone screenshot. */
  async function phoneShot(path: string, name: string) {
    await phone.goto(`${baseUrl}${path}`);
    await phone.waitForLoadState('networkidle');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= PHONE.width, `${path} fits 390 px (${overflow})`);
    await screenshot(phone, name);
  }

  async function addTarget(address: string): Promise<string> {
    await page.getByLabel('Kind').selectOption('webhook');
    await page.getByLabel('Address').fill(address);
    await page.getByRole('button', { name: 'Add target' }).click();
    const secret = (await page.getByTestId('target-secret').textContent())!.trim();
    assert.match(secret, /^whsec_/);
    return secret;
  }

  it('adds webhook targets (secret shown once) and saves filters, refusing a bad one with its reason', async () => {
    await nav().getByRole('link', { name: 'Filters & targets' }).click();
    await page.getByRole('heading', { name: 'Saved filters and delivery targets' }).waitFor();
    receiver.setSecret(await addTarget(receiver.url));
    await addTarget(down.url);
    await page.goto(`${baseUrl}/dashboard/filters`);
    assert.equal(await page.getByTestId('target-secret').count(), 0, 'the secret is not shown again');

    await page.getByLabel('Name').fill('bad');
    await page.getByLabel(/^Filter/).fill('min_da=500');
    await page.getByRole('button', { name: 'Save filter' }).click();
    assert.match((await page.getByTestId('form-error').textContent()) ?? '', /min_da/);

    await page.getByLabel('Name').fill('short .com with DA');
    await page.getByLabel(/^Filter/).fill('tld=com&min_da=30&max_length=10');
    await page.getByLabel(`webhook: ${receiver.url}`).check();
    await page.getByLabel(`webhook: ${down.url}`).check();
    await page.getByRole('button', { name: 'Save filter' }).click();
    await page.getByText('Filter saved.').waitFor();

    // From the feed explorer: the filters of the page become a saved filter.
    await nav().getByRole('link', { name: 'Dropped feed' }).click();
    await page.getByLabel('.org').check();
    await page.getByLabel('No hyphens').check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/hyphens=false/);
    await page.getByRole('textbox', { name: 'Name' }).fill('org without hyphens');
    await page.getByRole('button', { name: 'Save as filter' }).click();
    await page.getByText('Filter saved.').waitFor();
    const filters = await page.getByTestId('filters-table').locator('tbody tr td:nth-child(2)').allTextContents();
    assert.deepEqual(filters.sort(), ['tld=com&min_da=30&max_length=10', 'tld=org&status=dropped&hyphens=false']);
    await screenshot(page, 'delivery-filters');
    await phoneShot('/dashboard/filters', 'delivery-filters-phone');
  });

  it('shows the delivery log (rows, target, attempts, status, last error) and sends a dead batch again', async () => {
    const feed = async (...domains: string[]) => {
      t.clock.advance(MINUTE);
      await t.app.ctx.database.db
        .insertInto('feed_domains')
        .values(domains.map((domain) => feedRow(domain, { da: 45, updated_at: t.clock.now() })))
        .execute();
      await t.app.ctx.delivery.run();
    };
    await feed('goldbrand.com', 'silverline.com', 'plainname.org', 'with-hyphen.org');
    await feed('bluesky.com');
    // The second webhook has failed for 24 hours: its batches are dead-lettered.
    for (let hours = 0; hours < 27; hours += 3) {
      t.clock.advance(3 * HOUR);
      await t.app.ctx.delivery.sendDue();
    }
    assert.deepEqual(receiver.uniqueRows().sort(), ['bluesky.com', 'goldbrand.com', 'silverline.com']);

    await nav().getByRole('link', { name: 'Deliveries' }).click();
    const table = page.getByTestId('deliveries-table');
    await table.waitFor();
    const rows = await table.locator('tbody tr').allTextContents();
    assert.ok(rows.some((row) => /short \.com with DA #1/.test(row) && /delivered/.test(row)));
    assert.ok(rows.some((row) => /dead/.test(row) && /HTTP 500/.test(row)));
    assert.ok(rows.some((row) => /org without hyphens #1/.test(row) && /dashboard/.test(row)));
    await screenshot(page, 'delivery-log');
    await phoneShot('/dashboard/deliveries', 'delivery-log-phone');

    down.answer('ok');
    await table.locator('tr', { hasText: 'dead' }).first().getByRole('button', { name: 'Send again' }).click();
    await page.getByText('Queued again').waitFor();
    assert.ok((await table.locator('tbody tr').allTextContents()).some((row) => /pending/.test(row)));
  });

  it('watches names and lists their moves', async () => {
    sim.world.register('wanted-name.xyz', { expiresAt: t.clock.now() - 40 * DAY });
    sim.world.register('leaving-soon.org', { status: ['pending delete'], inZone: false });
    await nav().getByRole('link', { name: 'Watchlist' }).click();
    for (const domain of ['wanted-name.xyz', 'leaving-soon.org', 'nobody-owns-this.org']) {
      await page.getByLabel('Domain', { exact: true }).fill(domain);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.getByText('Watching it now').waitFor();
    }
    await page.getByLabel('Domain', { exact: true }).fill('name.invalid-tld');
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.getByTestId('form-error').waitFor();

    sim.world.get('wanted-name.xyz')!.status = ['redemption period'];
    t.clock.advance(DAY + MINUTE);
    await t.app.ctx.watchlist.follow({ deadline: Date.now() + 10_000 });
    await page.goto(`${baseUrl}/dashboard/watchlist`);
    const statuses = await page
      .getByTestId('watchlist-table')
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.getAttribute('data-domain'),
          row.querySelector('td:nth-child(2) .status')?.textContent?.trim(),
        ]),
      );
    assert.deepEqual(statuses.sort(), [
      ['leaving-soon.org', 'pending-delete'],
      ['nobody-owns-this.org', 'available'],
      ['wanted-name.xyz', 'redemption'],
    ]);
    const moves = await page.getByTestId('moves-table').locator('tbody tr').allTextContents();
    assert.ok(moves.some((move) => /wanted-name\.xyz/.test(move) && /redemption/.test(move)));
    await screenshot(page, 'watchlist');
    await phoneShot('/dashboard/watchlist', 'watchlist-phone');
  });
});
