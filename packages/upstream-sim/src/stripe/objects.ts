/**
 * The Stripe objects the simulator keeps, in the shapes of Stripe's API (version
 * 2026-10-28, the stripe-node v23 default): billing periods live on the subscription items,
 * an invoice names its subscription under `parent.subscription_details`.
 */
export type Metadata = Record<string, string>;

export interface SimPrice {
  id: string;
  object: 'price';
  active: boolean;
  currency: string;
  unit_amount: number;
  nickname: string | null;
  product: string;
  recurring: { interval: 'month'; interval_count: 1 };
  type: 'recurring';
}

export interface SimCustomer {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  metadata: Metadata;
  livemode: false;
}

export type SubscriptionStatus =
  | 'active'
  | 'past_due'
  | 'unpaid'
  | 'canceled'
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'paused';

export interface SimSubscriptionItem {
  id: string;
  object: 'subscription_item';
  created: number;
  current_period_start: number;
  current_period_end: number;
  price: SimPrice;
  quantity: number;
  subscription: string;
}

export interface SimSubscription {
  id: string;
  object: 'subscription';
  created: number;
  start_date: number;
  customer: string;
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  collection_method: 'charge_automatically';
  currency: string;
  latest_invoice: string | null;
  metadata: Metadata;
  items: { object: 'list'; data: SimSubscriptionItem[]; has_more: false; total_count: number; url: string };
  livemode: false;
}

export interface SimInvoice {
  id: string;
  object: 'invoice';
  /** The customer's prefix and a running count, as Stripe numbers invoices once finalized. */
  number: string;
  created: number;
  customer: string;
  /** Stripe's page where the customer sees and pays the invoice. */
  hosted_invoice_url: string;
  status: 'open' | 'paid' | 'uncollectible' | 'void';
  billing_reason: 'subscription_create' | 'subscription_cycle';
  currency: string;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  next_payment_attempt: number | null;
  period_start: number;
  period_end: number;
  parent: {
    type: 'subscription_details';
    quote_details: null;
    subscription_details: { subscription: string; metadata: Metadata };
  };
  livemode: false;
}

export interface SimCheckoutSession {
  id: string;
  object: 'checkout.session';
  created: number;
  expires_at: number;
  mode: 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Metadata;
  subscription: string | null;
  invoice: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  livemode: false;
}

export interface SimPortalSession {
  id: string;
  object: 'billing_portal.session';
  created: number;
  customer: string;
  return_url: string | null;
  url: string;
  livemode: false;
}

export interface SimEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

/** A webhook endpoint as `POST /v1/webhook_endpoints` answers it (the `secret` only in that answer, as Stripe). */
export interface SimWebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  api_version: string | null;
  created: number;
  description: string | null;
  enabled_events: string[];
  livemode: false;
  metadata: Metadata;
  secret?: string;
  status: 'enabled';
  url: string;
}

/** Stripe's error body: `{error: {type, code?, message, param?}}`. */
export interface StripeErrorBody {
  error: { type: 'invalid_request_error' | 'card_error' | 'api_error'; code?: string; message: string; param?: string };
}

/** A page of a Stripe list endpoint (`GET /v1/invoices`), newest first. */
export interface SimList<T> {
  object: 'list';
  url: string;
  has_more: boolean;
  data: T[];
}
