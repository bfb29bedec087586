import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import type { UpstreamSim } from '@repo/upstream-sim';
import { startStripeSim, stripeEnv, submitHostedForm, WEBHOOK_SECRET } from './billing-helpers.ts';
import { DashboardBrowser } from './dashboard-session.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let accountCounter = 0;

/** The invoice rows of the account page, in page order: [number, amount, status, link]. */
function invoiceRows(html: string): string[][] {
  const table = /<table[^>]*data-testid="invoices-table"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  return [...table.matchAll(/<tr data-invoice-id="in_\w+">([\s\S]*?)<\/tr>/g)].map((row) => {
    const cells = [...(row[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1] ?? '');
    const link = /href="([^"]+)"/.exec(cells[5] ?? '')?.[1] ?? '';
    return [cells[0]?.trim() ?? '', cells[3]?.trim() ?? '', cells[4]?.trim() ?? '', link];
  });
}

for (const target of databaseTargets()) {
  describe(`the account page lists the account's Stripe invoices (${target.name})`, { skip: target.skip }, () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    let sim: UpstreamSim;
    let t: TestApp;

    before(async () => {
      sim = await startStripeSim(clock);
      t = await createTestApp({ target, clock, env: stripeEnv(sim) });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as AddressInfo;
      sim.stripe.setWebhookEndpoint(`http://127.0.0.1:${port}/billing/webhook`, WEBHOOK_SECRET);
    });
    after(async () => {
      await sim?.close();
      await t?.close();
    });

    async function freeAccount() {
      const email = `invoices${++accountCounter}-${Date.now()}@example.com`;
      const key = await t.keyFor('free', email);
      const browser = new DashboardBrowser(t.app);
      assert.equal((await browser.signIn(email, key)).statusCode, 303);
      return { email, browser };
    }

    it('none before a plan is bought: the empty state says an upgrade brings the first', async () => {
      const { browser } = await freeAccount();
      const page = await browser.get('/dashboard');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /data-testid="invoices-table"/);
      assert.deepEqual(invoiceRows(page.body), []);
      assert.match(page.body, /No invoice yet/);
      assert.match(page.body, /Stripe sends an invoice when you upgrade to a paid plan/);
    });

    it('after Checkout and a renewal: both invoices, newest first, with number, amount, status and Stripe’s page', async () => {
      const { email, browser } = await freeAccount();
      await browser.get('/dashboard');
      const checkout = await browser.post('/dashboard/billing/checkout', { plan: 'starter' });
      assert.equal(checkout.statusCode, 303);
      assert.equal((await submitHostedForm(String(checkout.headers.location))).status, 303);
      await sim.stripe.webhooks.settled();

      const customer = (await t.app.ctx.accounts.summary(email)).billing.customerId as string;
      const prefix = customer.slice(4, 12).toUpperCase();
      const first = invoiceRows((await browser.get('/dashboard')).body);
      assert.equal(first.length, 1);
      const [number, amount, status, link] = first[0] as string[];
      assert.equal(number, `${prefix}-0001`);
      assert.equal(amount, '$19.00', 'Starter at $19 a month, in dollars');
      assert.equal(status, 'paid');
      const invoice = [...sim.stripe.invoices.values()].find((entry) => entry.customer === customer);
      assert.equal(link, invoice?.hosted_invoice_url);
      assert.match(await (await fetch(link as string)).text(), new RegExp(`Invoice ${prefix}-0001`));

      const subscription = [...sim.stripe.subscriptions.values()].find((entry) => entry.customer === customer);
      sim.stripe.advanceToPeriodEnd(subscription?.id as string);
      await sim.stripe.webhooks.settled();
      const both = invoiceRows((await browser.get('/dashboard')).body);
      assert.deepEqual(
        both.map((row) => row[0]),
        [`${prefix}-0002`, `${prefix}-0001`],
      );
      assert.doesNotMatch((await browser.get('/dashboard')).body, /No invoice yet/);
    });

    it('Stripe unreachable: the page still answers, and says the invoices could not be read', async () => {
      const { email, browser } = await freeAccount();
      await browser.get('/dashboard');
      const checkout = await browser.post('/dashboard/billing/checkout', { plan: 'starter' });
      await submitHostedForm(String(checkout.headers.location));
      await sim.stripe.webhooks.settled();
      assert.ok((await t.app.ctx.accounts.summary(email)).billing.customerId);
      // The client retries twice: three failures in a row are an outage.
      sim.stripe.failApiRequests = 3;
      const page = await browser.get('/dashboard');
      sim.stripe.failApiRequests = 0;
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /data-testid="invoices-unavailable"/);
      assert.doesNotMatch(page.body, /data-testid="invoices-table"/);
    });
  });
}

describe('an operator-billed service (no Stripe)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
  });
  after(async () => t?.close());

  it('shows no invoices section: plans are the operator’s', async () => {
    const email = `operator-${Date.now()}@example.com`;
    const key = await t.keyFor('starter', email);
    const browser = new DashboardBrowser(t.app);
    await browser.signIn(email, key);
    const page = await browser.get('/dashboard');
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /id="invoices-heading"/);
  });
});
