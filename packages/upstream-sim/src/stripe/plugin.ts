import type { FastifyInstance, FastifyReply } from 'fastify';
import qs from 'qs';
import { type StripeSimControl, StripeSimError } from './control.ts';
import type { Metadata, StripeErrorBody } from './objects.ts';

type Form = Record<string, unknown>;

const text = (form: Form, name: string): string | undefined => {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
};
const required = (form: Form, name: string): string => {
  const value = text(form, name);
  if (value === undefined || value === '')
    throw new StripeSimError(400, `Missing required param: ${name}.`, name, 'parameter_missing');
  return value;
};
const metadataOf = (value: unknown): Metadata | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null)
    throw new StripeSimError(400, 'Invalid hash', 'metadata', 'parameter_invalid_hash');
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, String(entry)]));
};

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(reply: FastifyReply, title: string, body: string, status = 200) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
        '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1a1f36}' +
        'h1{font-size:1.4rem}.box{border:1px solid #e3e8ee;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}' +
        'button{font:inherit;padding:.6rem 1rem;border-radius:6px;border:1px solid #635bff;background:#635bff;color:#fff;margin:.25rem .25rem .25rem 0;cursor:pointer}' +
        'button.secondary{background:#fff;color:#635bff}.muted{color:#697386;font-size:.9rem}</style></head>' +
        `<body><p class="muted">Stripe simulator (test mode)</p>${body}</body></html>`,
    );
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/**
 * Stripe's REST API as the service uses it (`/v1/…`, form-encoded bodies in Stripe's bracket
 * notation, Bearer secret key, Stripe's error body) and the pages Stripe hosts for people:
 * Checkout (`/stripe-sim/checkout/:id`) and the Customer Portal (`/stripe-sim/portal/:id`).
 */
export async function stripeSimPlugin(app: FastifyInstance, options: { control: StripeSimControl }) {
  const stripe = options.control;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, qs.parse(body as string, { depth: 5, arrayLimit: 100 }));
  });

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof StripeSimError) {
      const body: StripeErrorBody = {
        error: {
          type: error.code === 'card_declined' ? 'card_error' : 'invalid_request_error',
          code: error.code,
          message: error.message,
          ...(error.param ? { param: error.param } : {}),
        },
      };
      return reply.status(error.status).send(body);
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return reply.status(status).send({
      error: { type: status < 500 ? 'invalid_request_error' : 'api_error', message: (error as Error).message },
    });
  });

  await app.register(async (api) => {
    api.addHook('onRequest', async (request) => {
      stripe.requests.push(`${request.method} ${request.url.split('?')[0]}`);
      if (stripe.failApiRequests > 0) {
        stripe.failApiRequests--;
        throw Object.assign(new Error('An unknown error occurred'), { statusCode: 500 });
      }
      const expected = `Bearer ${stripe.secretKey}`;
      if (request.headers.authorization !== expected) {
        throw new StripeSimError(401, 'Invalid API Key provided.', undefined, 'api_key_invalid');
      }
    });

    api.post('/v1/customers', async (request) => {
      const form = (request.body ?? {}) as Form;
      return stripe.createCustomer({ email: text(form, 'email'), metadata: metadataOf(form.metadata) });
    });
    api.get('/v1/customers/:id', async (request) => {
      const { id } = request.params as { id: string };
      const customer = stripe.customers.get(id);
      if (!customer) throw new StripeSimError(404, `No such customer: '${id}'`, 'id');
      return customer;
    });

    api.post('/v1/checkout/sessions', async (request) => {
      const form = (request.body ?? {}) as Form;
      if (required(form, 'mode') !== 'subscription') {
        throw new StripeSimError(400, 'The simulator sells subscriptions only (mode=subscription).', 'mode');
      }
      const lineItems = form.line_items as Array<Form> | undefined;
      const first = Array.isArray(lineItems) ? lineItems[0] : undefined;
      if (!first || typeof first.price !== 'string') {
        throw new StripeSimError(
          400,
          'Missing required param: line_items[0][price].',
          'line_items[0][price]',
          'parameter_missing',
        );
      }
      const subscriptionData = (form.subscription_data ?? {}) as Form;
      return stripe.createCheckoutSession({
        customer: text(form, 'customer'),
        customer_email: text(form, 'customer_email'),
        price: first.price,
        success_url: required(form, 'success_url'),
        cancel_url: text(form, 'cancel_url'),
        client_reference_id: text(form, 'client_reference_id'),
        metadata: metadataOf(form.metadata),
        subscription_metadata: metadataOf(subscriptionData.metadata),
      });
    });
    api.get('/v1/checkout/sessions/:id', async (request) => {
      const { id } = request.params as { id: string };
      const session = stripe.checkoutSessions.get(id);
      if (!session) throw new StripeSimError(404, `No such checkout.session: '${id}'`, 'id');
      return session;
    });

    api.post('/v1/billing_portal/sessions', async (request) => {
      const form = (request.body ?? {}) as Form;
      return stripe.createPortalSession({ customer: required(form, 'customer'), return_url: text(form, 'return_url') });
    });

    api.get('/v1/subscriptions/:id', async (request) => {
      const { id } = request.params as { id: string };
      const subscription = stripe.subscriptions.get(id);
      if (!subscription) throw new StripeSimError(404, `No such subscription: '${id}'`, 'id');
      return subscription;
    });
    api.post('/v1/subscriptions/:id', async (request) => {
      const { id } = request.params as { id: string };
      const form = (request.body ?? {}) as Form;
      const cancel = text(form, 'cancel_at_period_end');
      if (cancel === 'true') return stripe.cancelAtPeriodEnd(id);
      if (cancel === 'false') return stripe.resume(id);
      throw new StripeSimError(400, 'The simulator updates cancel_at_period_end only.', 'cancel_at_period_end');
    });
    api.delete('/v1/subscriptions/:id', async (request) => stripe.cancelNow((request.params as { id: string }).id));

    api.get('/v1/invoices', async (request) => {
      const query = request.query as Record<string, string | undefined>;
      const limit = query.limit === undefined ? undefined : Number(query.limit);
      return stripe.listInvoices({ customer: query.customer, status: query.status, limit });
    });
    api.get('/v1/invoices/:id', async (request) => {
      const { id } = request.params as { id: string };
      const invoice = stripe.invoices.get(id);
      if (!invoice) throw new StripeSimError(404, `No such invoice: '${id}'`, 'id');
      return invoice;
    });

    api.post('/v1/webhook_endpoints', async (request) => {
      const form = (request.body ?? {}) as Form;
      const events = form.enabled_events;
      return stripe.createWebhookEndpoint({
        url: required(form, 'url'),
        enabled_events: Array.isArray(events) ? events.map(String) : typeof events === 'string' ? [events] : [],
        description: text(form, 'description'),
      });
    });

    api.get('/v1/events/:id', async (request) => {
      const { id } = request.params as { id: string };
      const event = stripe.events.find((candidate) => candidate.id === id);
      if (!event) throw new StripeSimError(404, `No such event: '${id}'`, 'id');
      return event;
    });
  });

  // The pages Stripe hosts: what a person sees after the service redirects them.
  app.get('/stripe-sim/checkout/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const session = stripe.checkoutSessions.get(id);
    if (!session) return page(reply, 'Not found', '<h1>This checkout link is not valid.</h1>', 404);
    if (session.status !== 'open') return page(reply, 'Done', '<h1>This checkout session is complete.</h1>');
    const price = stripe.priceOfCheckout(id);
    const customer = session.customer ? stripe.customers.get(session.customer) : undefined;
    return page(
      reply,
      'Checkout',
      `<h1>Subscribe</h1><div class="box"><p><strong>${escapeHtml(price?.nickname ?? 'Subscription')}</strong> · ${money(price?.unit_amount ?? 0)} per month</p>` +
        `<p>Billed monthly to <strong>${escapeHtml(customer?.email ?? session.customer_email ?? '')}</strong></p></div>` +
        `<form method="post" action="/stripe-sim/checkout/${id}"><button type="submit" data-action="pay">Pay and subscribe</button></form>` +
        (session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>` : ''),
    );
  });
  app.post('/stripe-sim/checkout/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    try {
      const session = stripe.completeCheckout(id);
      return reply.redirect(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id), 303);
    } catch (error) {
      if (!(error instanceof StripeSimError)) throw error;
      return page(reply, 'Payment failed', `<h1>${escapeHtml(error.message)}</h1>`, error.status);
    }
  });

  app.get('/stripe-sim/invoice/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const invoice = stripe.invoices.get(id);
    if (!invoice) return page(reply, 'Not found', '<h1>This invoice link is not valid.</h1>', 404);
    const customer = stripe.customers.get(invoice.customer);
    return page(
      reply,
      `Invoice ${invoice.number}`,
      `<h1>Invoice ${escapeHtml(invoice.number)}</h1><div class="box">` +
        `<p><strong>${money(invoice.amount_due)}</strong> · ${invoice.status === 'paid' ? 'Paid' : 'Due'}</p>` +
        `<p>Billed to ${escapeHtml(customer?.email ?? invoice.customer)}</p>` +
        `<p class="muted">Period ${day(invoice.period_start)} – ${day(invoice.period_end)} · issued ${day(invoice.created)}</p></div>`,
    );
  });

  app.get('/stripe-sim/portal/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const session = stripe.portalSessions.get(id);
    if (!session) return page(reply, 'Not found', '<h1>This portal link is not valid.</h1>', 404);
    const customer = stripe.customers.get(session.customer);
    const subscriptions = [...stripe.subscriptions.values()].filter((sub) => sub.customer === session.customer);
    const rows = subscriptions
      .map((sub) => {
        const item = sub.items.data[0];
        if (!item) return '';
        const state =
          sub.status === 'canceled'
            ? `Ended ${day(sub.ended_at ?? 0)}`
            : sub.cancel_at_period_end
              ? `Cancels ${day(item.current_period_end)}`
              : `${sub.status === 'past_due' ? 'Payment failed — ' : ''}Renews ${day(item.current_period_end)}`;
        const action =
          sub.status === 'canceled'
            ? ''
            : `<form method="post" action="/stripe-sim/portal/${id}/${sub.cancel_at_period_end ? 'resume' : 'cancel'}">` +
              `<input type="hidden" name="subscription" value="${sub.id}">` +
              `<button type="submit" class="${sub.cancel_at_period_end ? '' : 'secondary'}" data-action="${sub.cancel_at_period_end ? 'resume' : 'cancel'}">${sub.cancel_at_period_end ? 'Renew subscription' : 'Cancel subscription'}</button></form>`;
        return `<div class="box"><p><strong>${escapeHtml(item.price.nickname ?? item.price.id)}</strong> · ${money(item.price.unit_amount)} per month</p><p class="muted">${state}</p>${action}</div>`;
      })
      .join('');
    return page(
      reply,
      'Billing',
      `<h1>Billing for ${escapeHtml(customer?.email ?? session.customer)}</h1>${rows || '<p>No subscriptions.</p>'}` +
        (session.return_url
          ? `<p><a href="${escapeHtml(session.return_url)}" data-action="return">Return to the service</a></p>`
          : ''),
    );
  });
  app.post('/stripe-sim/portal/:id/:action', async (request, reply) => {
    const { id, action } = request.params as { id: string; action: string };
    const session = stripe.portalSessions.get(id);
    const subscriptionId = text((request.body ?? {}) as Form, 'subscription') ?? '';
    const subscription = stripe.subscriptions.get(subscriptionId);
    if (!session || !subscription || subscription.customer !== session.customer) {
      return page(reply, 'Not found', '<h1>Not found.</h1>', 404);
    }
    if (action === 'cancel') stripe.cancelAtPeriodEnd(subscriptionId);
    else if (action === 'resume') stripe.resume(subscriptionId);
    else return page(reply, 'Not found', '<h1>Not found.</h1>', 404);
    return reply.redirect(`/stripe-sim/portal/${id}`, 303);
  });
}
