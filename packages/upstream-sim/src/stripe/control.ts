import { randomBytes } from 'node:crypto';
import { stripeId } from './ids.ts';
import type {
  Metadata,
  SimCheckoutSession,
  SimCustomer,
  SimEvent,
  SimInvoice,
  SimList,
  SimPortalSession,
  SimPrice,
  SimSubscription,
  SimWebhookEndpoint,
} from './objects.ts';
import { WebhookDelivery, type WebhookEndpoint } from './webhook-delivery.ts';

export const SIM_STRIPE_API_VERSION = '2026-10-28.endive';
/** Stripe's Smart Retries default: four payment attempts before the subscription is cancelled. */
export const PAYMENT_ATTEMPTS = 4;

export class StripeSimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
    readonly code = 'resource_missing',
  ) {
    super(message);
  }
}

export interface StripeSimOptions {
  /** The secret key callers must send (`Authorization: Bearer sk_test_…`). */
  secretKey?: string;
  /** The simulator's clock, ms (tests share theirs with the service under test). */
  now?: () => number;
  /** Base URL of the simulator, for the hosted checkout and portal pages. */
  baseUrl?: () => string;
  /** Where events go from the start, as if registered in Stripe's dashboard (see `setWebhookEndpoint`). */
  webhookEndpoint?: WebhookEndpoint;
  /** Called after every change of the account's state, e.g. to keep a `snapshot()` on disk. */
  onChange?: () => void;
}

type Order = { price: string; subscriptionMetadata: Metadata };

/**
 * Everything the simulated Stripe account holds, as plain JSON: `snapshot()` gives it and
 * `restore()` takes it back, so a simulator that restarts (the demo's) still knows the customers
 * and subscriptions the service it bills remembers.
 */
export interface StripeSimState {
  customers: SimCustomer[];
  prices: SimPrice[];
  checkoutSessions: SimCheckoutSession[];
  portalSessions: SimPortalSession[];
  subscriptions: SimSubscription[];
  invoices: SimInvoice[];
  events: SimEvent[];
  orders: Array<[string, Order]>;
}

/** The prices the simulated account sells from the start (a service's STRIPE_PRICE_STARTER / _ENTERPRISE). */
export const SIM_STRIPE_PRICES = { starter: 'price_sim_starter_monthly', enterprise: 'price_sim_enterprise_monthly' };

const DEFAULT_PRICES: Array<Pick<SimPrice, 'id' | 'unit_amount' | 'nickname'>> = [
  { id: SIM_STRIPE_PRICES.starter, unit_amount: 1_900, nickname: 'Starter' },
  { id: SIM_STRIPE_PRICES.enterprise, unit_amount: 29_900, nickname: 'Enterprise' },
];

/** Adds calendar months in UTC like Stripe's monthly billing (Jan 31 + 1 month = Feb 28/29). */
function addMonthsSeconds(seconds: number, months: number): number {
  const date = new Date(seconds * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return Math.floor(date.getTime() / 1000);
}

/**
 * The Stripe account the simulator plays: customers, prices, Checkout and Billing Portal
 * sessions, subscriptions and invoices, and the events each change emits, delivered signed to
 * the webhook endpoint. Tests drive what a customer or time would do (`completeCheckout`,
 * `cancelAtPeriodEnd`, `advanceToPeriodEnd`, `failPayment`) and how delivery misbehaves.
 */
export class StripeSimControl {
  readonly secretKey: string;
  readonly customers = new Map<string, SimCustomer>();
  readonly prices = new Map<string, SimPrice>();
  readonly checkoutSessions = new Map<string, SimCheckoutSession>();
  readonly portalSessions = new Map<string, SimPortalSession>();
  readonly subscriptions = new Map<string, SimSubscription>();
  readonly invoices = new Map<string, SimInvoice>();
  readonly events: SimEvent[] = [];
  /** What each Checkout Session sells (its `line_items` and `subscription_data`, not echoed by the API). */
  readonly #orders = new Map<string, Order>();
  readonly webhooks: WebhookDelivery;
  /** API requests served, by `METHOD /path` (tests check what the service asked). */
  readonly requests: string[] = [];
  /** The next this-many API requests answer 500 api_error (Stripe having a bad moment). */
  failApiRequests = 0;
  /** The next renewal payment (or checkout) is declined. */
  declineNextPayment = false;
  readonly #now: () => number;
  #baseUrl: () => string;
  readonly #onChange: () => void;

  constructor(options: StripeSimOptions = {}) {
    this.secretKey = options.secretKey ?? 'sk_test_simulator';
    this.#now = options.now ?? Date.now;
    this.#baseUrl = options.baseUrl ?? (() => 'http://127.0.0.1');
    this.#onChange = options.onChange ?? (() => undefined);
    this.webhooks = new WebhookDelivery(() => this.nowSeconds());
    this.webhooks.endpoint = options.webhookEndpoint;
    for (const price of DEFAULT_PRICES) this.addPrice(price);
  }

  /** The account's state as plain JSON (webhook endpoint and delivery log excluded: they are configuration and history). */
  snapshot(): StripeSimState {
    return structuredClone({
      customers: [...this.customers.values()],
      prices: [...this.prices.values()],
      checkoutSessions: [...this.checkoutSessions.values()],
      portalSessions: [...this.portalSessions.values()],
      subscriptions: [...this.subscriptions.values()],
      invoices: [...this.invoices.values()],
      events: this.events,
      orders: [...this.#orders],
    });
  }

  /** Replaces the account's state with a `snapshot()`; sends no event (nothing happened, it is remembered). */
  restore(state: StripeSimState): void {
    const copy = structuredClone(state);
    const refill = <T extends { id: string }>(map: Map<string, T>, items: T[]) => {
      map.clear();
      for (const item of items) map.set(item.id, item);
    };
    refill(this.customers, copy.customers);
    refill(this.prices, copy.prices);
    refill(this.checkoutSessions, copy.checkoutSessions);
    refill(this.portalSessions, copy.portalSessions);
    refill(this.subscriptions, copy.subscriptions);
    refill(this.invoices, copy.invoices);
    this.events.splice(0, this.events.length, ...copy.events);
    this.#orders.clear();
    for (const [id, order] of copy.orders) this.#orders.set(id, order);
  }

  /**
   * The clock has moved on (as when a Stripe test clock is advanced): every subscription whose
   * period ended meanwhile is renewed or, if set to cancel, ended, one period at a time, with the
   * events Stripe would have sent on the way. Returns the subscriptions that moved.
   */
  advanceTime(): SimSubscription[] {
    const now = this.nowSeconds();
    const moved = new Set<SimSubscription>();
    for (const subscription of this.subscriptions.values()) {
      while (subscription.status !== 'canceled' && (subscription.items.data[0]?.current_period_end ?? now + 1) <= now) {
        this.advanceToPeriodEnd(subscription.id);
        moved.add(subscription);
      }
    }
    return [...moved];
  }

  setBaseUrl(baseUrl: () => string): void {
    this.#baseUrl = baseUrl;
  }

  nowSeconds(): number {
    return Math.floor(this.#now() / 1000);
  }

  /** Where Stripe would send events: as if registered in the dashboard with this signing secret. */
  setWebhookEndpoint(url: string, secret: string): void {
    this.webhooks.endpoint = { url, secret };
  }

  /**
   * `POST /v1/webhook_endpoints`: registers where events go, as a Stripe account's owner does
   * through the API, and makes its signing secret (given in this answer only). The simulator has
   * one endpoint: a new one replaces the last.
   */
  createWebhookEndpoint(input: { url: string; enabled_events: string[]; description?: string }): SimWebhookEndpoint {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      throw new StripeSimError(
        400,
        'Invalid URL: An explicit scheme (such as https) must be provided.',
        'url',
        'url_invalid',
      );
    }
    if (input.enabled_events.length === 0) {
      throw new StripeSimError(400, 'Missing required param: enabled_events.', 'enabled_events', 'parameter_missing');
    }
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    this.webhooks.endpoint = { url: url.toString(), secret, enabledEvents: [...input.enabled_events] };
    return {
      id: stripeId('we'),
      object: 'webhook_endpoint',
      api_version: null,
      created: this.nowSeconds(),
      description: input.description ?? null,
      enabled_events: [...input.enabled_events],
      livemode: false,
      metadata: {},
      secret,
      status: 'enabled',
      url: url.toString(),
    };
  }

  addPrice(input: Pick<SimPrice, 'id' | 'unit_amount' | 'nickname'>): SimPrice {
    const price: SimPrice = {
      ...input,
      object: 'price',
      active: true,
      currency: 'usd',
      product: stripeId('prod'),
      recurring: { interval: 'month', interval_count: 1 },
      type: 'recurring',
    };
    this.prices.set(price.id, price);
    return price;
  }

  /** The price a Checkout Session sells. */
  priceOfCheckout(sessionId: string): SimPrice | undefined {
    const order = this.#orders.get(sessionId);
    return order ? this.prices.get(order.price) : undefined;
  }

  createCustomer(input: { email?: string; metadata?: Metadata }): SimCustomer {
    const customer: SimCustomer = {
      id: stripeId('cus'),
      object: 'customer',
      created: this.nowSeconds(),
      email: input.email ?? null,
      metadata: input.metadata ?? {},
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    this.#onChange();
    return customer;
  }

  createCheckoutSession(input: {
    customer?: string;
    customer_email?: string;
    price: string;
    success_url: string;
    cancel_url?: string;
    client_reference_id?: string;
    metadata?: Metadata;
    subscription_metadata?: Metadata;
  }): SimCheckoutSession {
    if (!this.prices.has(input.price)) {
      throw new StripeSimError(400, `No such price: '${input.price}'`, 'line_items[0][price]');
    }
    if (input.customer !== undefined && !this.customers.has(input.customer)) {
      throw new StripeSimError(400, `No such customer: '${input.customer}'`, 'customer');
    }
    const id = stripeId('cs_test');
    const now = this.nowSeconds();
    const session: SimCheckoutSession = {
      id,
      object: 'checkout.session',
      created: now,
      expires_at: now + 24 * 3600,
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: input.customer ?? null,
      customer_email: input.customer_email ?? null,
      client_reference_id: input.client_reference_id ?? null,
      metadata: input.metadata ?? {},
      subscription: null,
      invoice: null,
      success_url: input.success_url,
      cancel_url: input.cancel_url ?? null,
      url: `${this.#baseUrl()}/stripe-sim/checkout/${id}`,
      livemode: false,
    };
    this.checkoutSessions.set(id, session);
    this.#orders.set(id, { price: input.price, subscriptionMetadata: input.subscription_metadata ?? {} });
    this.#onChange();
    return session;
  }

  createPortalSession(input: { customer: string; return_url?: string }): SimPortalSession {
    if (!this.customers.has(input.customer)) {
      throw new StripeSimError(400, `No such customer: '${input.customer}'`, 'customer');
    }
    const id = stripeId('bps');
    const session: SimPortalSession = {
      id,
      object: 'billing_portal.session',
      created: this.nowSeconds(),
      customer: input.customer,
      return_url: input.return_url ?? null,
      url: `${this.#baseUrl()}/stripe-sim/portal/${id}`,
      livemode: false,
    };
    this.portalSessions.set(id, session);
    this.#onChange();
    return session;
  }

  /**
   * The customer pays on the hosted Checkout page: a customer (if the session had none), an
   * active subscription and its first paid invoice; events `customer.subscription.created`,
   * `invoice.paid`, `checkout.session.completed` (Stripe sends them in no promised order).
   * With `declineNextPayment` the card is declined and the session stays open.
   */
  completeCheckout(sessionId: string): SimCheckoutSession {
    const session = this.checkoutSessions.get(sessionId);
    if (!session) throw new StripeSimError(404, `No such checkout.session: '${sessionId}'`);
    if (session.status !== 'open') throw new StripeSimError(400, 'This Checkout Session is no longer open.');
    if (this.declineNextPayment) {
      this.declineNextPayment = false;
      throw new StripeSimError(402, 'Your card was declined.', undefined, 'card_declined');
    }
    const customerId = session.customer ?? this.createCustomer({ email: session.customer_email ?? undefined }).id;
    const order = this.#orders.get(sessionId) as Order;
    const price = this.prices.get(order.price) as SimPrice;
    const now = this.nowSeconds();
    const subscriptionId = stripeId('sub');
    const subscription: SimSubscription = {
      id: subscriptionId,
      object: 'subscription',
      created: now,
      start_date: now,
      customer: customerId,
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      collection_method: 'charge_automatically',
      currency: 'usd',
      latest_invoice: null,
      metadata: { ...order.subscriptionMetadata },
      items: {
        object: 'list',
        data: [
          {
            id: stripeId('si'),
            object: 'subscription_item',
            created: now,
            current_period_start: now,
            current_period_end: addMonthsSeconds(now, 1),
            price,
            quantity: 1,
            subscription: subscriptionId,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${subscriptionId}`,
      },
      livemode: false,
    };
    this.subscriptions.set(subscriptionId, subscription);
    const invoice = this.createInvoice(subscription, 'subscription_create', true);
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer: customerId,
      subscription: subscriptionId,
      invoice: invoice.id,
    });
    this.emit([
      this.event('customer.subscription.created', subscription),
      this.event('invoice.paid', invoice),
      this.event('checkout.session.completed', session),
    ]);
    return session;
  }

  /** The customer cancels in the portal: the subscription runs to the end of its period. */
  cancelAtPeriodEnd(subscriptionId: string): SimSubscription {
    const subscription = this.liveSubscription(subscriptionId);
    const item = subscription.items.data[0];
    this.update(subscription, {
      cancel_at_period_end: true,
      cancel_at: item?.current_period_end ?? null,
      canceled_at: this.nowSeconds(),
    });
    return subscription;
  }

  /** The customer renews a subscription set to cancel ("Renew subscription" in the portal). */
  resume(subscriptionId: string): SimSubscription {
    const subscription = this.liveSubscription(subscriptionId);
    this.update(subscription, { cancel_at_period_end: false, cancel_at: null, canceled_at: null });
    return subscription;
  }

  /** The customer switches plan in the portal (effective now, as with proration). */
  changePrice(subscriptionId: string, priceId: string): SimSubscription {
    const subscription = this.liveSubscription(subscriptionId);
    const price = this.prices.get(priceId);
    if (!price) throw new StripeSimError(400, `No such price: '${priceId}'`, 'items[0][price]');
    const item = subscription.items.data[0];
    if (!item) throw new StripeSimError(400, 'Subscription has no items.');
    const previous = { items: structuredClone(subscription.items) };
    item.price = price;
    this.emit([this.event('customer.subscription.updated', subscription, previous)]);
    return subscription;
  }

  /** Cancels at once (DELETE /v1/subscriptions/:id): `customer.subscription.deleted`. */
  cancelNow(subscriptionId: string): SimSubscription {
    const subscription = this.liveSubscription(subscriptionId);
    const now = this.nowSeconds();
    Object.assign(subscription, { status: 'canceled', canceled_at: now, ended_at: now });
    this.emit([this.event('customer.subscription.deleted', subscription)]);
    return subscription;
  }

  /**
   * Time reaches the end of the current period: a subscription set to cancel ends
   * (`customer.subscription.deleted`); any other renews, its invoice paid (`invoice.paid`) or,
   * with `declineNextPayment`, failed (`invoice.payment_failed`, status `past_due`).
   */
  advanceToPeriodEnd(subscriptionId: string): SimSubscription {
    const subscription = this.liveSubscription(subscriptionId);
    const item = subscription.items.data[0] as SimSubscription['items']['data'][number];
    const end = item.current_period_end;
    if (subscription.cancel_at_period_end) {
      Object.assign(subscription, { status: 'canceled', ended_at: end });
      this.emit([this.event('customer.subscription.deleted', subscription)]);
      return subscription;
    }
    const previous = { items: structuredClone(subscription.items), status: subscription.status };
    item.current_period_start = end;
    item.current_period_end = addMonthsSeconds(end, 1);
    const paid = !this.declineNextPayment;
    this.declineNextPayment = false;
    const invoice = this.createInvoice(subscription, 'subscription_cycle', paid);
    subscription.status = paid ? 'active' : 'past_due';
    this.emit([
      this.event(paid ? 'invoice.paid' : 'invoice.payment_failed', invoice),
      this.event('customer.subscription.updated', subscription, previous),
    ]);
    return subscription;
  }

  /**
   * Smart Retries try the open invoice again: paid → `invoice.paid` and `active`; declined →
   * `invoice.payment_failed`, and after the last attempt the subscription is cancelled.
   */
  retryPayment(subscriptionId: string, succeeds: boolean): SimSubscription {
    const subscription = this.liveSubscription(subscriptionId);
    const invoice = subscription.latest_invoice ? this.invoices.get(subscription.latest_invoice) : undefined;
    if (invoice?.status !== 'open') throw new StripeSimError(400, 'No open invoice to retry.');
    invoice.attempt_count++;
    const previous = { status: subscription.status };
    if (succeeds) {
      Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, amount_remaining: 0 });
      invoice.next_payment_attempt = null;
      subscription.status = 'active';
      this.emit([
        this.event('invoice.paid', invoice),
        this.event('customer.subscription.updated', subscription, previous),
      ]);
      return subscription;
    }
    const last = invoice.attempt_count >= PAYMENT_ATTEMPTS;
    invoice.next_payment_attempt = last ? null : this.nowSeconds() + 3 * 86_400;
    if (!last) {
      this.emit([this.event('invoice.payment_failed', invoice)]);
      return subscription;
    }
    const now = this.nowSeconds();
    Object.assign(subscription, { status: 'canceled', canceled_at: now, ended_at: now });
    this.emit([
      this.event('invoice.payment_failed', invoice),
      this.event('customer.subscription.deleted', subscription),
    ]);
    return subscription;
  }

  /** Sends an event again (Stripe dashboard "Resend"). */
  async resendEvent(eventId: string): Promise<void> {
    const event = this.events.find((candidate) => candidate.id === eventId);
    if (!event) throw new StripeSimError(404, `No such event: '${eventId}'`);
    await this.webhooks.resend(event);
  }

  private liveSubscription(id: string): SimSubscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new StripeSimError(404, `No such subscription: '${id}'`);
    if (subscription.status === 'canceled') {
      throw new StripeSimError(400, 'A canceled subscription can only update its cancellation_details and metadata.');
    }
    return subscription;
  }

  /**
   * `GET /v1/invoices`: a customer's invoices, newest first (by creation, then by issue order),
   * at most `limit` (Stripe's default 10, at most 100).
   */
  listInvoices(query: { customer?: string; status?: string; limit?: number }): SimList<SimInvoice> {
    const limit = query.limit ?? 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new StripeSimError(400, 'Invalid integer: limit must be between 1 and 100.', 'limit');
    }
    const matching = [...this.invoices.values()]
      .map((invoice, order) => ({ invoice, order }))
      .filter(({ invoice }) => query.customer === undefined || invoice.customer === query.customer)
      .filter(({ invoice }) => query.status === undefined || invoice.status === query.status)
      .sort((a, b) => b.invoice.created - a.invoice.created || b.order - a.order)
      .map(({ invoice }) => invoice);
    return { object: 'list', url: '/v1/invoices', has_more: matching.length > limit, data: matching.slice(0, limit) };
  }

  private update(subscription: SimSubscription, changes: Partial<SimSubscription>): void {
    const previous = Object.fromEntries(
      Object.keys(changes).map((key) => [key, subscription[key as keyof SimSubscription]]),
    );
    Object.assign(subscription, changes);
    this.emit([this.event('customer.subscription.updated', subscription, previous)]);
  }

  private createInvoice(subscription: SimSubscription, reason: SimInvoice['billing_reason'], paid: boolean) {
    const item = subscription.items.data[0] as SimSubscription['items']['data'][number];
    const amount = item.price.unit_amount;
    const now = this.nowSeconds();
    const id = stripeId('in');
    const earlier = [...this.invoices.values()].filter((other) => other.customer === subscription.customer).length;
    const invoice: SimInvoice = {
      id,
      object: 'invoice',
      number: `${subscription.customer.slice(4, 12).toUpperCase()}-${String(earlier + 1).padStart(4, '0')}`,
      created: now,
      customer: subscription.customer,
      hosted_invoice_url: `${this.#baseUrl()}/stripe-sim/invoice/${id}`,
      status: paid ? 'paid' : 'open',
      billing_reason: reason,
      currency: 'usd',
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      attempt_count: 1,
      attempted: true,
      next_payment_attempt: paid ? null : now + 3 * 86_400,
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
      },
      livemode: false,
    };
    this.invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  /** An event carries a snapshot of the object as it was when the event happened. */
  private event(type: string, object: unknown, previous?: Record<string, unknown>): SimEvent {
    const event: SimEvent = {
      id: stripeId('evt'),
      object: 'event',
      api_version: SIM_STRIPE_API_VERSION,
      created: this.nowSeconds(),
      type,
      data: {
        object: structuredClone(object),
        ...(previous ? { previous_attributes: structuredClone(previous) } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    this.events.push(event);
    return event;
  }

  /** Every change ends in events: the state is told changed before they go out. */
  private emit(events: SimEvent[]): void {
    this.#onChange();
    this.webhooks.send(events);
  }
}
