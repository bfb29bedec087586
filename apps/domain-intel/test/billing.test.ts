import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { type DatabaseTarget, databaseTargets } from '@repo/server-kit/testing';
import { stripeSignatureHeader, type UpstreamSim } from '@repo/upstream-sim';
import { startStripeSim, stripeEnv, submitHostedForm, WEBHOOK_SECRET } from './billing-helpers.ts';
import { DashboardBrowser } from './dashboard-session.ts';
import { recordedEvents } from './event-helpers.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp-helpers.ts';

let accountCounter = 0;

for (const target of databaseTargets()) {
  describe(`billing through Stripe Checkout, the portal and webhooks (${target.name})`, { skip: target.skip }, () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    let sim: UpstreamSim;
    let smtp: TestSmtpServer;
    let t: TestApp;
    let webhookUrl: string;

    before(async () => {
      sim = await startStripeSim(clock);
      smtp = await startSmtpServer();
      t = await createTestApp({ target, clock, env: { ...stripeEnv(sim), SMTP_URL: smtp.url } });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as AddressInfo;
      webhookUrl = `http://127.0.0.1:${port}/billing/webhook`;
      sim.stripe.setWebhookEndpoint(webhookUrl, WEBHOOK_SECRET);
    });
    after(async () => {
      await sim?.close();
      await t?.close();
      await smtp?.close();
    });

    /** A Free account signed in to the dashboard. */
    async function freeAccount() {
      const email = `billing${++accountCounter}-${Date.now()}@example.com`;
      const key = await t.keyFor('free', email);
      const browser = new DashboardBrowser(t.app);
      const signedIn = await browser.signIn(email, key);
      assert.equal(signedIn.statusCode, 303);
      return { email, key, browser };
    }

    /** Upgrade through Checkout as a person would: the dashboard button, Stripe's page, back. */
    async function buy(browser: DashboardBrowser, plan: 'starter' | 'enterprise') {
      const overview = await browser.get('/dashboard');
      assert.match(overview.body, new RegExp(`data-action="upgrade-${plan}"`));
      const checkout = await browser.post('/dashboard/billing/checkout', { plan });
      assert.equal(checkout.statusCode, 303);
      const checkoutUrl = String(checkout.headers.location);
      assert.match(checkoutUrl, /\/stripe-sim\/checkout\/cs_test_\w+$/);
      const paid = await submitHostedForm(checkoutUrl);
      assert.equal(paid.status, 303);
      const back = new URL(String(paid.headers.get('location')));
      assert.equal(back.pathname, '/dashboard/billing/return');
      const returned = await browser.get(back.pathname + back.search);
      assert.equal(returned.headers.location, '/dashboard?done=upgraded');
      await sim.stripe.webhooks.settled();
      const sessionId = back.searchParams.get('session_id') as string;
      return sim.stripe.checkoutSessions.get(sessionId)?.subscription as string;
    }

    const quotaOf = (key: string) => t.app.inject({ method: 'GET', url: '/v1/quota', headers: bearer(key) });

    it('checkout → Starter → a daily quota of 1,000', async () => {
      const { email, key, browser } = await freeAccount();
      assert.equal((await quotaOf(key)).json().data.limit, 100);
      const subscriptionId = await buy(browser, 'starter');
      assert.match(subscriptionId, /^sub_\w+$/);
      const quota = await quotaOf(key);
      assert.equal(quota.statusCode, 200);
      assert.equal(quota.json().data.limit, 1_000);
      const account = await t.app.ctx.accounts.summary(email);
      assert.equal(account.plan, 'starter');
      assert.equal(account.billing.status, 'active');
      assert.match(account.billing.customerId ?? '', /^cus_\w+$/);
      const customer = sim.stripe.customers.get(account.billing.customerId as string);
      assert.equal(customer?.email, email);
      assert.equal(customer?.metadata.account_id, account.account_id);
      const overview = await browser.get('/dashboard');
      assert.match(overview.body, /data-action="manage-billing"/);
      assert.doesNotMatch(overview.body, /data-action="upgrade-starter"/);
      assert.doesNotMatch(overview.body, /data-action="upgrade-enterprise"/, 'a subscriber changes plan in the portal');
    });

    it('cancel at period end in the portal: works to the end of the paid period, then 401 key_revoked', async () => {
      const { email, key, browser } = await freeAccount();
      const subscriptionId = await buy(browser, 'enterprise');
      const portal = await browser.post('/dashboard/billing/portal');
      assert.equal(portal.statusCode, 303);
      const portalUrl = String(portal.headers.location);
      assert.match(portalUrl, /\/stripe-sim\/portal\/bps_\w+$/);
      const page = await fetch(portalUrl);
      assert.match(await page.text(), /Cancel subscription/);
      const cancelled = await submitHostedForm(`${portalUrl}/cancel`, { subscription: subscriptionId });
      assert.equal(cancelled.status, 303);
      await sim.stripe.webhooks.settled();

      const account = await t.app.ctx.accounts.summary(email);
      assert.equal(account.subscription.status, 'cancelled');
      const periodEnd = account.subscription.periodEnd as number;
      const item = sim.stripe.subscriptions.get(subscriptionId)?.items.data[0];
      assert.equal(periodEnd, (item?.current_period_end as number) * 1000);
      const mail = smtp.received.find((entry) => entry.to.includes(email) && /ends on/.test(entry.raw));
      assert.ok(mail, 'the "subscription ending" mail was sent');
      // …and the subscription.ending account event is recorded for the account's webhooks, once.
      assert.deepEqual(await recordedEvents(t, account.account_id, 'subscription.ending'), [
        { plan: 'enterprise', ends_at: new Date(periodEnd).toISOString() },
      ]);

      clock.set(periodEnd - 1_000);
      assert.equal((await quotaOf(key)).statusCode, 200, 'still paid for');
      clock.set(periodEnd);
      const revoked = await quotaOf(key);
      assert.equal(revoked.statusCode, 401);
      assert.equal(revoked.json().error.code, 'key_revoked');

      // Stripe ends the subscription at the period end; the key stays refused.
      sim.stripe.advanceToPeriodEnd(subscriptionId);
      await sim.stripe.webhooks.settled();
      assert.equal((await t.app.ctx.accounts.summary(email)).billing.status, 'canceled');
      assert.equal((await quotaOf(key)).json().error.code, 'key_revoked');
      clock.set('2026-03-10T12:00:00Z');
    });

    it('applies each event once however often and in whatever order it arrives', async () => {
      const { email, key, browser } = await freeAccount();
      // Hold delivery back: events pile up at Stripe, then arrive last-first and twice.
      sim.stripe.webhooks.endpoint = undefined;
      const before = sim.stripe.events.length;
      const overview = await browser.get('/dashboard');
      assert.equal(overview.statusCode, 200);
      const checkout = await browser.post('/dashboard/billing/checkout', { plan: 'starter' });
      const paid = await submitHostedForm(String(checkout.headers.location));
      assert.equal(paid.status, 303);
      const subscriptionId = [...sim.stripe.subscriptions.values()].at(-1)?.id as string;
      sim.stripe.cancelAtPeriodEnd(subscriptionId);
      const held = sim.stripe.events.slice(before);
      assert.deepEqual(
        held.map((event) => event.type),
        [
          'customer.subscription.created',
          'invoice.paid',
          'checkout.session.completed',
          'customer.subscription.updated',
        ],
      );
      sim.stripe.setWebhookEndpoint(webhookUrl, WEBHOOK_SECRET);
      for (const event of [...held].reverse()) {
        await sim.stripe.resendEvent(event.id);
        await sim.stripe.resendEvent(event.id);
      }
      const stored = await t.app.ctx.database.db
        .selectFrom('billing_events')
        .select(['id', 'applied_at', 'outcome'])
        .where(
          'id',
          'in',
          held.map((event) => event.id),
        )
        .execute();
      assert.equal(stored.length, held.length, 'one row per event id');
      assert.ok(stored.every((row) => row.applied_at !== null));
      const deliveries = sim.stripe.webhooks.log.filter((entry) => held.some((event) => event.id === entry.eventId));
      assert.equal(deliveries.length, held.length * 2);
      assert.ok(deliveries.every((entry) => entry.status === 200));
      // The first event applied (the cancellation) already read the subscription as it is now.
      const account = await t.app.ctx.accounts.summary(email);
      assert.equal(account.plan, 'starter');
      assert.equal(account.subscription.status, 'cancelled');
      assert.equal((await quotaOf(key)).json().data.limit, 1_000);
      const endingMails = smtp.received.filter((entry) => entry.to.includes(email) && /ends on/.test(entry.raw));
      assert.equal(endingMails.length, 1, 'the mail of an event goes once');
    });

    it("a delivery that cannot be applied answers 5xx, stays stored, and is applied on Stripe's retry", async () => {
      const { email, browser } = await freeAccount();
      // Stripe's API fails while the service applies the first event: it answers 5xx, Stripe retries.
      sim.stripe.failApiRequests = 0;
      const overview = await browser.get('/dashboard');
      assert.equal(overview.statusCode, 200);
      const checkout = await browser.post('/dashboard/billing/checkout', { plan: 'starter' });
      sim.stripe.failApiRequests = 3;
      const paid = await submitHostedForm(String(checkout.headers.location));
      assert.equal(paid.status, 303);
      await sim.stripe.webhooks.settled();
      sim.stripe.failApiRequests = 0;
      const subscriptionId = [...sim.stripe.subscriptions.values()].at(-1)?.id as string;
      const first = sim.stripe.events.find(
        (event) =>
          event.type === 'customer.subscription.created' && (event.data.object as { id: string }).id === subscriptionId,
      );
      const attempts = sim.stripe.webhooks.log.filter((entry) => entry.eventId === first?.id);
      assert.ok(attempts.length >= 2, 'retried');
      assert.equal(attempts[0]?.status, 500);
      assert.equal(attempts.at(-1)?.status, 200);
      const row = await t.app.ctx.database.db
        .selectFrom('billing_events')
        .selectAll()
        .where('id', '=', first?.id as string)
        .executeTakeFirstOrThrow();
      assert.ok(row.applied_at !== null);
      assert.equal((await t.app.ctx.accounts.summary(email)).plan, 'starter');
    });

    it('a failed renewal keeps the keys during Stripe retries, mails the owner, then ends the plan', async () => {
      const { email, key, browser } = await freeAccount();
      const subscriptionId = await buy(browser, 'starter');
      sim.stripe.declineNextPayment = true;
      sim.stripe.advanceToPeriodEnd(subscriptionId);
      await sim.stripe.webhooks.settled();
      let account = await t.app.ctx.accounts.summary(email);
      assert.equal(account.billing.status, 'past_due');
      assert.equal((await quotaOf(key)).statusCode, 200, 'keys work while Stripe retries');
      assert.ok(
        smtp.received.some(
          (entry) => entry.to.includes(email) && /Payment for your Starter plan failed/.test(entry.raw),
        ),
      );
      const overview = await browser.get('/dashboard');
      assert.match(overview.body, /data-testid="payment-failed"/);
      for (let attempt = 2; attempt <= 4; attempt++) sim.stripe.retryPayment(subscriptionId, false);
      await sim.stripe.webhooks.settled();
      account = await t.app.ctx.accounts.summary(email);
      assert.equal(account.billing.status, 'canceled');
      assert.equal(account.subscription.status, 'ended');
      assert.equal((await quotaOf(key)).json().error.code, 'key_revoked');
    });

    it('refuses forged, stale, tampered and unsigned webhooks (400 invalid_signature), storing nothing', async () => {
      const now = Math.floor(clock.now() / 1000);
      const payload = JSON.stringify({
        id: 'evt_forged000000000000000001',
        object: 'event',
        type: 'invoice.paid',
        created: now,
        data: { object: {} },
      });
      const post = (body: string, signature?: string) =>
        t.app.inject({
          method: 'POST',
          url: '/billing/webhook',
          headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
          payload: body,
        });
      const cases = [
        { name: 'wrong secret', response: await post(payload, stripeSignatureHeader(payload, 'whsec_not_ours', now)) },
        {
          name: 'older than the tolerance',
          response: await post(payload, stripeSignatureHeader(payload, WEBHOOK_SECRET, now - 301)),
        },
        {
          name: 'tampered body',
          response: await post(
            payload.replace('invoice.paid', 'invoice.paid '),
            stripeSignatureHeader(payload, WEBHOOK_SECRET, now),
          ),
        },
        { name: 'no header', response: await post(payload) },
        { name: 'junk header', response: await post(payload, 't=abc,v1=\u0000') },
      ];
      for (const { name, response } of cases) {
        assert.equal(response.statusCode, 400, name);
        assert.equal(response.json().error.code, 'invalid_signature', name);
      }
      const stored = await t.app.ctx.database.db
        .selectFrom('billing_events')
        .select('id')
        .where('id', '=', 'evt_forged000000000000000001')
        .execute();
      assert.equal(stored.length, 0);
      const valid = await post(payload, stripeSignatureHeader(payload, WEBHOOK_SECRET, now));
      assert.equal(valid.statusCode, 200, 'the same event, rightly signed, is taken');
      assert.equal(valid.json().data.outcome, 'ignored: no subscription');
    });
  });
}

describe('without Stripe configured', () => {
  const sqlite = databaseTargets()[0] as DatabaseTarget;
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: sqlite });
  });
  after(async () => t?.close());

  it('the dashboard says plans are changed by the operator, the webhook route does not exist, the CLI still changes plans', async () => {
    const email = `operator-${Date.now()}@example.com`;
    const key = await t.keyFor('free', email);
    const browser = new DashboardBrowser(t.app);
    await browser.signIn(email, key);
    const overview = await browser.get('/dashboard');
    assert.match(overview.body, /data-testid="operator-plans"/);
    assert.doesNotMatch(overview.body, /billing\/checkout/);
    const webhook = await t.app.inject({ method: 'POST', url: '/billing/webhook', payload: {} });
    assert.equal(webhook.statusCode, 404);
    await t.app.ctx.accounts.setPlan(email, 'starter');
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/v1/quota', headers: bearer(key) })).json().data.limit,
      1_000,
    );
  });
});
