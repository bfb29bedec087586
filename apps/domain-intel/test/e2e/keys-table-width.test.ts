import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { browserSkipReason, launchBrowser } from '@repo/server-kit/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers.ts';

const skip = browserSkipReason();
const EMAIL = 'long-key-names@example.com';
/** 21 characters, where the table began to scroll sideways, and 64, the longest name a key may have. */
const NAMES = ['production-eu-west-1a', 'billing-reconciliation-worker-eu-west-1-primary-replica-0000001'];
/** Where the screenshots go when SCREENSHOT_DIR is set, to look at them. */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

/** Every Rotate and Revoke button of the keys table, its box in the viewport after scrolling it into view vertically. */
async function actionBoxes(page: Page) {
  const buttons = page.locator('[data-testid="keys-table"] button[data-action]');
  const boxes = [];
  for (const button of await buttons.all()) {
    // Vertically only: a button a person would have to scroll sideways to must count as hidden.
    await button.evaluate((element) => element.scrollIntoView({ block: 'center', inline: 'nearest' }));
    await page.evaluate(() => {
      for (const box of Array.from(document.querySelectorAll('.table-scroll'))) box.scrollLeft = 0;
      window.scrollTo(0, window.scrollY);
    });
    const box = await button.boundingBox();
    assert.ok(box, 'the button is rendered');
    boxes.push({ action: await button.getAttribute('data-action'), ...box });
  }
  return boxes;
}

describe('the keys table shows its actions with long key names', { skip }, () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let key: string;

  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
    key = (await t.app.ctx.accounts.signUp({ email: EMAIL, plan: 'starter' })).key.key;
    for (const name of NAMES) await t.app.ctx.accounts.createKey(EMAIL, name);
    // A revoked key too: its status cell ("revoked 2026-03-10") is the widest one.
    const revoked = await t.app.ctx.accounts.createKey(EMAIL, 'old-laptop');
    await t.app.ctx.accounts.revokeKey(EMAIL, revoked.key_id);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(viewport: { width: number; height: number }, phone: boolean): Promise<Page> {
    const context = await browser.newContext({ viewport, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByLabel('E-mail', { exact: true }).fill(EMAIL);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    return page;
  }

  it('at 1280 px: every Rotate and Revoke button inside the window, the table not scrolling sideways', async () => {
    const page = await signedIn({ width: 1280, height: 900 }, false);
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/keys-1280.png`, fullPage: true });
    const boxes = await actionBoxes(page);
    // The sign-up key and the two long ones are active: a Rotate and a Revoke each.
    assert.equal(boxes.length, 6);
    for (const box of boxes) {
      assert.ok(box.x >= 0 && box.x + box.width <= 1280, `${box.action} at ${box.x}–${box.x + box.width} px`);
    }
    const sideways = await page.locator('[data-testid="keys-table"]').evaluate((table) => {
      const box = table.closest('.table-scroll') ?? table;
      return box.scrollWidth - box.clientWidth;
    });
    assert.equal(sideways, 0, 'the keys table does not scroll sideways');
    for (const name of NAMES) assert.ok(await page.getByText(name, { exact: true }).isVisible(), name);
    await page.context().close();
  });

  it('at 390 px: every button reachable without scrolling sideways', async () => {
    const page = await signedIn({ width: 390, height: 844 }, true);
    if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/keys-390.png`, fullPage: true });
    const boxes = await actionBoxes(page);
    assert.equal(boxes.length, 6);
    for (const box of boxes) {
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `${box.action} at ${box.x}–${box.x + box.width} px`);
    }
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'the page does not scroll sideways',
    );
    // Every date and date-time on the page is on one line, however narrow its cell.
    const broken = await page.evaluate(() =>
      Array.from(document.querySelectorAll('time.date'))
        .filter((element) => element.getClientRects().length !== 1)
        .map((element) => element.textContent),
    );
    assert.ok((await page.locator('time.date').count()) > 5, 'the page has dates');
    assert.deepEqual(broken, []);
    await page.context().close();
  });
});
