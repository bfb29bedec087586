import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startUpstreamSim, stripeSignatureHeader, type UpstreamSim } from '../src/index.ts';

interface Delivery {
  type: string;
  signature: string;
  payload: string;
}

/**
 * The webhook endpoint set the way a Stripe account's owner sets it, through the API
 * (`POST /v1/webhook_endpoints`), not from test code: a service pointed at the simulator by
 * hand gets its events signed with the secret that answer gave.
 */
describe('Stripe simulator: POST /v1/webhook_endpoints', () => {
  let sim: UpstreamSim;
  const received: Delivery[] = [];
  const receiver = createServer((request, response) => {
    let payload = '';
    request.on('data', (chunk: Buffer) => {
      payload += chunk;
    });
    request.on('end', () => {
      const type = (JSON.parse(payload) as { type: string }).type;
      received.push({ type, signature: String(request.headers['stripe-signature']), payload });
      response.writeHead(200).end();
    });
  });
  const form = (fields: Array<[string, string]>) =>
    fetch(`${sim.url}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sim.stripe.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(fields).toString(),
    });

  before(async () => {
    sim = await startUpstreamSim({ stripe: { now: () => Date.parse('2026-03-10T12:00:00Z') } });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await sim.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('answers the endpoint with its signing secret, and sends the enabled events signed with it', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/billing/webhook`;
    const response = await form([
      ['url', url],
      ['enabled_events[]', 'customer.subscription.created'],
      ['enabled_events[]', 'invoice.paid'],
    ]);
    assert.equal(response.status, 200);
    const endpoint = (await response.json()) as { id: string; object: string; secret: string; url: string };
    assert.equal(endpoint.object, 'webhook_endpoint');
    assert.match(endpoint.id, /^we_/);
    assert.match(endpoint.secret, /^whsec_/);
    assert.equal(endpoint.url, url);

    const customer = sim.stripe.createCustomer({ email: 'owner@example.com' });
    const session = sim.stripe.createCheckoutSession({
      customer: customer.id,
      price: 'price_sim_starter_monthly',
      success_url: 'http://127.0.0.1/back',
    });
    sim.stripe.completeCheckout(session.id);
    await sim.stripe.webhooks.settled();
    // checkout.session.completed was not asked for.
    assert.deepEqual(received.map((delivery) => delivery.type).sort(), [
      'customer.subscription.created',
      'invoice.paid',
    ]);
    for (const delivery of received) {
      const timestamp = Number(/t=(\d+)/.exec(delivery.signature)?.[1]);
      assert.equal(delivery.signature, stripeSignatureHeader(delivery.payload, endpoint.secret, timestamp));
    }
  });

  it('refuses an endpoint without a URL or without events, as Stripe does', async () => {
    const noEvents = await form([['url', 'http://127.0.0.1:1/hook']]);
    assert.equal(noEvents.status, 400);
    assert.equal(((await noEvents.json()) as { error: { param: string } }).error.param, 'enabled_events');
    const noUrl = await form([['enabled_events[]', '*']]);
    assert.equal(noUrl.status, 400);
    assert.equal(((await noUrl.json()) as { error: { param: string } }).error.param, 'url');
  });
});
