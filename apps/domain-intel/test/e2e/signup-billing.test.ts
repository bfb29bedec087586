import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import { browserSkipReason, launchBrowser, screenshot } from '@repo/server-kit/testing/browser';
import type { UpstreamSim } from '@repo/upstream-sim';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startStripeSim, stripeEnv, WEBHOOK_SECRET } from '../billing-helpers.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../smtp-helpers.ts';

const skip = browserSkipReason();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1200, height: 900 };

/** How much wider than the window the page is (0 when nothing overflows). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * A newcomer in Chromium: signs up, confirms the address from the mail, sees the key once,
 * signs in to the dashboard and buys Starter through Stripe Checkout (the simulator), then
 * opens the billing portal. At desktop width and at 390 px, with screenshots of each page.
 */
describe('sign-up, confirmation and billing in a browser', { skip }, () => {
  const clock = new ManualClock('2026-03-10T12:00:00Z');
  let t: TestApp;
  let sim: UpstreamSim;
  let smtp: TestSmtpServer;
  let baseUrl: string;
  let browser: Browser;

  before(async () => {
    sim = await startStripeSim(clock);
    smtp = await startSmtpServer();
    // PUBLIC_URL must be known before the app listens: take a port first.
    const probe = await createTestApp({ target: databaseTargets()[0]! });
    await probe.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (probe.app.server.address() as AddressInfo).port;
    await probe.close();
    baseUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      target: databaseTargets()[0]!,
      clock,
      env: { ...stripeEnv(sim), SMTP_URL: smtp.url, PUBLIC_URL: baseUrl },
    });
    await t.app.listen({ host: '127.0.0.1', port });
    sim.stripe.setWebhookEndpoint(`${baseUrl}/billing/webhook`, WEBHOOK_SECRET);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await sim?.close();
    await smtp?.close();
  });

  /** The first mail to `email` (mails of the other runs arrive at the same server). */
  async function mailTo(email: string) {
    for (let attempt = 0; attempt < 200; attempt++) {
      const mail = smtp.received.find((entry) => entry.to.includes(email));
      if (mail) return mail;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no mail to ${email}`);
  }

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    const suffix = label === 'phone' ? '-390' : '';

    it(`signs up, confirms from the mail, sees the key once, and buys Starter (${label})`, async () => {
      const context: BrowserContext = await browser.newContext({ viewport });
      const page = await context.newPage();
      try {
        const email = `newcomer-${label}@example.com`;
        await page.goto(`${baseUrl}/signup`);
        await page.getByLabel('E-mail address').fill(email);
        await screenshot(page, `signup${suffix}`, { fullPage: false });
        assert.equal(await overflow(page), 0, 'the form fits the window');
        await page.getByRole('button', { name: 'Send me the link' }).click();
        await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
        assert.equal(await overflow(page), 0);
        await screenshot(page, `signup-sent${suffix}`, { fullPage: false });

        const mail = await mailTo(email);
        const link = linkIn(mail.raw, '/signup/confirm');
        await page.goto(link.toString());
        await page.getByRole('heading', { name: 'Confirm your address' }).waitFor();
        assert.equal(await page.locator('text=di_live_').count(), 0, 'no key before the button');
        assert.equal(await overflow(page), 0);
        await screenshot(page, `signup-confirm${suffix}`, { fullPage: false });
        await page.getByRole('button', { name: 'Confirm and show my key' }).click();
        const key = (await page.getByTestId('signup-key').textContent())?.trim() ?? '';
        assert.match(key, /^di_live_/);
        assert.equal(await overflow(page), 0, 'the key wraps instead of widening the page');
        await screenshot(page, `signup-key${suffix}`, { fullPage: false });

        // The dashboard with the new key: the Plan card sells the paid plans through Stripe.
        await page.goto(`${baseUrl}/dashboard`);
        await page.getByLabel('E-mail', { exact: true }).fill(email);
        await page.getByLabel('API key').fill(key);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
        await page.locator('[data-action="upgrade-starter"]').waitFor();
        await page.locator('#plan-heading').scrollIntoViewIfNeeded();
        await screenshot(page, `billing-plan${suffix}`, { fullPage: false });

        await page.locator('[data-action="upgrade-starter"]').click();
        await page.getByRole('heading', { name: 'Subscribe' }).waitFor();
        assert.ok(page.url().startsWith(`${sim.url}/stripe-sim/checkout/`), 'the browser is on Stripe Checkout');
        await page.locator('[data-action="pay"]').click();
        await page.getByText('Payment received: your new plan applies now.').waitFor();
        await sim.stripe.webhooks.settled();
        assert.equal((await t.app.ctx.accounts.summary(email)).plan, 'starter');
        assert.match((await page.locator('.dash-who').textContent()) ?? '', /Starter/);
        assert.equal(await page.locator('[data-action="upgrade-starter"]').count(), 0);
        await screenshot(page, `billing-upgraded${suffix}`, { fullPage: false });

        // A renewal that fails: the dashboard says so while Stripe retries.
        const subscriptionId = (await t.app.ctx.accounts.summary(email)).billing.subscriptionId as string;
        sim.stripe.declineNextPayment = true;
        sim.stripe.advanceToPeriodEnd(subscriptionId);
        await sim.stripe.webhooks.settled();
        await page.goto(`${baseUrl}/dashboard`);
        await page.getByTestId('payment-failed').waitFor();
        assert.equal(await overflow(page), 0, 'the account page fits');
        await page.locator('#plan-heading').scrollIntoViewIfNeeded();
        await screenshot(page, `billing-payment-failed${suffix}`, { fullPage: false });

        await page.locator('[data-action="manage-billing"]').click();
        await page.getByRole('heading', { name: `Billing for ${email}` }).waitFor();
        assert.ok(page.url().startsWith(`${sim.url}/stripe-sim/portal/`), 'the browser is in the Customer Portal');
      } finally {
        await context.close();
      }
    });
  }
});
