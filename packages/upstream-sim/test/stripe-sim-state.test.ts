import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StripeSimControl } from '../src/stripe/index.ts';

const DAY = 86_400_000;

/** A simulated account on a clock the test moves, with one paid Starter subscription. */
function subscribed(start = Date.parse('2026-01-15T12:00:00Z')) {
  const clock = { now: start };
  let changes = 0;
  const stripe = new StripeSimControl({ now: () => clock.now, onChange: () => changes++ });
  const customer = stripe.createCustomer({ email: 'owner@example.com' });
  const session = stripe.createCheckoutSession({
    customer: customer.id,
    price: 'price_sim_starter_monthly',
    success_url: 'http://127.0.0.1/back',
  });
  const subscription = stripe.subscriptions.get(stripe.completeCheckout(session.id).subscription as string)!;
  return { stripe, clock, subscription, changes: () => changes };
}

describe('the Stripe simulator kept and moved in time (the demo restarts it and advances it)', () => {
  it('tells of every change, and a snapshot restored into a new simulator is the same account', () => {
    const { stripe, clock, subscription, changes } = subscribed();
    assert.ok(changes() >= 3, 'customer, checkout session and its completion each told');
    const copy = new StripeSimControl({ now: () => clock.now });
    copy.restore(JSON.parse(JSON.stringify(stripe.snapshot())));
    assert.deepEqual(copy.snapshot(), stripe.snapshot());
    // The restored account acts on what it remembers: the portal's cancel, then the period end.
    copy.cancelAtPeriodEnd(subscription.id);
    clock.now = Date.parse('2026-02-15T12:00:00Z');
    assert.deepEqual(
      copy.advanceTime().map((moved) => [moved.id, moved.status]),
      [[subscription.id, 'canceled']],
    );
    assert.equal(copy.events.at(-1)?.type, 'customer.subscription.deleted');
  });

  it('advanceTime renews a live subscription once per period passed, and not before its period ends', () => {
    const { stripe, clock, subscription } = subscribed();
    const item = () => subscription.items.data[0]!;
    assert.equal(new Date(item().current_period_end * 1000).toISOString(), '2026-02-15T12:00:00.000Z');
    clock.now = Date.parse('2026-02-15T11:59:59Z');
    assert.deepEqual(stripe.advanceTime(), [], 'a second before the period end nothing happens');
    clock.now += 53 * DAY; // 2026-04-09: the periods ending on 15 February and 15 March have passed
    assert.equal(stripe.advanceTime().length, 1);
    assert.equal(new Date(item().current_period_start * 1000).toISOString(), '2026-03-15T12:00:00.000Z');
    assert.equal(new Date(item().current_period_end * 1000).toISOString(), '2026-04-15T12:00:00.000Z');
    const paid = [...stripe.invoices.values()].filter((invoice) => invoice.billing_reason === 'subscription_cycle');
    assert.equal(paid.length, 2);
    assert.ok(paid.every((invoice) => invoice.status === 'paid'));
    assert.equal(subscription.status, 'active');
  });
});
