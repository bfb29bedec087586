import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import type { UpstreamSim } from '@repo/upstream-sim';
import { startStripeSim, stripeEnv, WEBHOOK_SECRET } from './billing-helpers.ts';
import { capturedLog, createTestApp, type TestApp } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`a checkout naming another account's Stripe customer (${target.name})`, { skip: target.skip }, () => {
    const clock = new ManualClock('2026-03-10T12:00:00Z');
    const { logStream, logLines } = capturedLog();
    let sim: UpstreamSim;
    let t: TestApp;

    before(async () => {
      sim = await startStripeSim(clock);
      t = await createTestApp({ target, clock, env: stripeEnv(sim), logStream });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as AddressInfo;
      sim.stripe.setWebhookEndpoint(`http://127.0.0.1:${port}/billing/webhook`, WEBHOOK_SECRET);
    });
    after(async () => {
      await sim?.close();
      await t?.close();
    });

    it('is refused once, with its reason stored and logged, and answered 2xx so Stripe stops', async () => {
      const { accounts } = t.app.ctx;
      await t.keyFor('free', 'owner@example.com');
      await t.keyFor('free', 'other@example.com');
      const owner = await accounts.summary('owner@example.com');
      const other = await accounts.summary('other@example.com');
      const customer = sim.stripe.createCustomer({ email: owner.email, metadata: { account_id: owner.account_id } });
      await accounts.setStripeCustomer(owner.account_id, customer.id);

      // A session made at Stripe (its dashboard, a payment link) for the owner's customer, but naming the other account.
      const session = sim.stripe.createCheckoutSession({
        customer: customer.id,
        price: 'price_sim_starter_monthly',
        success_url: 'https://example.com/done',
        client_reference_id: other.account_id,
        metadata: { account_id: other.account_id, plan: 'starter' },
      });
      sim.stripe.completeCheckout(session.id);
      await sim.stripe.webhooks.settled();

      const completed = sim.stripe.events.find(
        (event) =>
          event.type === 'checkout.session.completed' && (event.data.object as { id: string }).id === session.id,
      );
      assert.ok(completed);
      const attempts = sim.stripe.webhooks.log.filter((entry) => entry.eventId === completed.id);
      assert.deepEqual(
        attempts.map((entry) => entry.status),
        [200],
        'one delivery, answered 2xx: Stripe does not retry',
      );

      const stored = await t.app.ctx.database.db
        .selectFrom('billing_events')
        .selectAll()
        .where('id', '=', completed.id)
        .executeTakeFirstOrThrow();
      assert.ok(stored.applied_at !== null);
      assert.equal(stored.account_id, other.account_id);
      assert.equal(
        stored.outcome,
        `refused: customer ${customer.id} belongs to account ${owner.account_id}, not ${other.account_id}`,
      );
      const logged = logLines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'stripe event refused');
      assert.ok(logged, 'a log line says why');
      assert.equal(logged.event, completed.id);
      assert.equal(logged.customerId, customer.id);
      assert.equal(logged.linkedAccountId, owner.account_id);

      // The customer stays the owner's; the other account gained no customer.
      assert.equal((await accounts.summary('owner@example.com')).billing.customerId, customer.id);
      assert.equal((await accounts.summary('other@example.com')).billing.customerId, null);

      // Sent again from Stripe's dashboard, it is the same stored refusal, still 2xx.
      await sim.stripe.resendEvent(completed.id);
      const again = sim.stripe.webhooks.log.filter((entry) => entry.eventId === completed.id);
      assert.deepEqual(
        again.map((entry) => entry.status),
        [200, 200],
      );

      // Coming back from that checkout as the other account (the dashboard's return page) links nothing either.
      const billing = t.app.ctx.billing;
      assert.ok(billing);
      await assert.rejects(billing.finishCheckout(other, session.id), { code: 'checkout_not_found' });
      assert.equal((await accounts.summary('other@example.com')).billing.customerId, null);
    });
  });
}
