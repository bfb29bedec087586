import type { Clock } from '@repo/server-kit';
import type Stripe from 'stripe';
import type { AccountSummary, AccountsService, BilledSubscription } from '../accounts/accounts-service.ts';
import type { PlanChange } from '../accounts/plan-changes.ts';
import { isPaid, PLANS, type PlanId } from '../accounts/plans.ts';
import { appError } from '../error-catalogue.ts';
import type { AccountNotices } from '../notices/account-notices.ts';
import type { BillingEvents } from './billing-events.ts';
import type { BillingNotice } from './billing-notice.ts';
import type { StripeSettings } from './stripe-client.ts';

/** Stripe statuses in which the subscription is paid for or being retried: the plan applies. */
const LIVE = new Set(['active', 'trialing', 'past_due']);
/** Statuses in which it is over: the plan's keys answer 401 key_revoked. */
const OVER = new Set(['canceled', 'unpaid', 'incomplete_expired']);

export interface BillingLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface BillingServiceDeps {
  stripe: Stripe;
  settings: StripeSettings;
  accounts: AccountsService;
  events: BillingEvents;
  clock: Clock;
  /** Mails the owner about billing notices (once each); undefined without account mail. */
  notices: AccountNotices | undefined;
  log: BillingLog;
}

export interface WebhookOutcome {
  /** The event had been applied before: this delivery changed nothing. */
  duplicate: boolean;
  outcome: string;
}

const ms = (seconds: number) => seconds * 1000;

/** A Stripe customer a checkout named, already linked to another account of this service. */
interface ForeignCustomer {
  customerId: string;
  linkedAccountId: string;
}

/**
 * Paid plans through Stripe: Checkout to buy, the Customer Portal to manage, and webhooks that
 * make each account follow its Stripe subscription. Every event is stored, then applied by
 * reading the subscription's current state from Stripe, so duplicates and any delivery order
 * end in the same state; side effects (mails, notices) happen once per event id.
 */
export class BillingService {
  readonly #noticeListeners = new Set<(notice: BillingNotice) => Promise<void> | void>();

  constructor(private readonly deps: BillingServiceDeps) {}

  /** Paid plans this service sells, with their Stripe prices. */
  priceOf(plan: PlanId): string {
    if (plan === 'starter') return this.deps.settings.prices.starter;
    if (plan === 'enterprise') return this.deps.settings.prices.enterprise;
    throw appError('invalid_plan', 'Free needs no checkout; choose Starter or Enterprise.');
  }

  planOfPrice(priceId: string): PlanId | undefined {
    const { starter, enterprise } = this.deps.settings.prices;
    if (priceId === starter) return 'starter';
    if (priceId === enterprise) return 'enterprise';
    return undefined;
  }

  /** Listens for billing notices (subscription ending, payment failed), e.g. to call account webhooks. */
  onNotice(listener: (notice: BillingNotice) => Promise<void> | void): () => void {
    this.#noticeListeners.add(listener);
    return () => this.#noticeListeners.delete(listener);
  }

  /**
   * A Checkout Session that buys `plan` for the account; returns the URL to send the browser to.
   * An account already paying through Stripe changes plan in the portal instead.
   */
  async startCheckout(account: AccountSummary, plan: PlanId, urls: { success: string; cancel: string }) {
    const price = this.priceOf(plan);
    if (account.billing.subscriptionId && LIVE.has(account.billing.status ?? '')) {
      throw appError(
        'already_subscribed',
        'This account already has a subscription; change it under "Manage billing".',
      );
    }
    const customer = await this.#customerOf(account);
    const session = await this.deps.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      line_items: [{ price, quantity: 1 }],
      client_reference_id: account.account_id,
      metadata: { account_id: account.account_id, plan },
      subscription_data: { metadata: { account_id: account.account_id } },
      success_url: urls.success,
      cancel_url: urls.cancel,
    });
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return session.url;
  }

  /** A Customer Portal session (card, invoices, cancel, resume); returns its URL. */
  async openPortal(account: AccountSummary, returnUrl: string): Promise<string> {
    if (!account.billing.customerId) {
      throw appError('no_billing_account', 'This account has not bought a plan through Stripe yet.');
    }
    const session = await this.deps.stripe.billingPortal.sessions.create({
      customer: account.billing.customerId,
      return_url: returnUrl,
    });
    return session.url;
  }

  /**
   * Back from Checkout: applies the session's subscription at once (the webhook may come later
   * or earlier; both read the same state). Only the account that started the session may finish it.
   */
  async finishCheckout(account: AccountSummary, sessionId: string): Promise<'upgraded' | 'pending'> {
    if (!/^cs_\w{1,200}$/.test(sessionId)) throw checkoutNotFound();
    const session = await this.deps.stripe.checkout.sessions.retrieve(sessionId).catch((error: unknown) => {
      if ((error as { statusCode?: number }).statusCode === 404) throw checkoutNotFound();
      throw error;
    });
    if (session.client_reference_id !== account.account_id) throw checkoutNotFound();
    if (session.status !== 'complete' || typeof session.subscription !== 'string') return 'pending';
    const linkedElsewhere = await this.#rememberCustomer(account, session.customer);
    if (linkedElsewhere) {
      this.deps.log.warn(
        { session: session.id, accountId: account.account_id, ...linkedElsewhere },
        'checkout not finished: its Stripe customer belongs to another account',
      );
      throw checkoutNotFound();
    }
    await this.#sync(session.subscription, account.account_id);
    return 'upgraded';
  }

  /**
   * Verifies a webhook delivery with the documented scheme (`Stripe-Signature: t=…,v1=…`, HMAC-SHA256
   * over "t.body" under the endpoint secret, timestamps older than the tolerance refused).
   */
  verify(rawBody: Buffer, signature: string | string[] | undefined): Stripe.Event {
    if (typeof signature !== 'string' || signature === '') {
      throw invalidSignature('A webhook needs exactly one Stripe-Signature header.');
    }
    try {
      return this.deps.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.deps.settings.webhookSecret,
        this.deps.settings.toleranceSeconds,
        undefined,
        this.deps.clock.now(),
      );
    } catch (error) {
      throw invalidSignature((error as Error).message);
    }
  }

  /** Stores a verified event, then applies it unless a delivery of it was applied before. */
  async receive(event: Stripe.Event, rawBody: Buffer): Promise<WebhookOutcome> {
    const { events, clock } = this.deps;
    const stored = await events.store(
      { id: event.id, type: event.type, created: ms(event.created), payload: rawBody.toString('utf8') },
      clock.now(),
    );
    if (stored.alreadyApplied) return { duplicate: true, outcome: 'already applied' };
    const result = await this.#apply(event);
    const first = await events.markApplied(event.id, clock.now(), result.accountId, result.outcome);
    if (first && result.account) await this.#announce(event, result.account);
    return { duplicate: !first, outcome: result.outcome };
  }

  async #apply(event: Stripe.Event): Promise<{ accountId: string | null; account?: AccountSummary; outcome: string }> {
    let subscriptionId: string | null = null;
    let hintAccountId: string | undefined;
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        hintAccountId = session.client_reference_id ?? session.metadata?.account_id;
        subscriptionId =
          typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
        if (hintAccountId) {
          const account = await this.deps.accounts.findSummaryById(hintAccountId);
          const linkedElsewhere = account && (await this.#rememberCustomer(account, session.customer));
          if (linkedElsewhere) return this.#refuseForeignCustomer(event, hintAccountId, linkedElsewhere);
        }
        break;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        subscriptionId = event.data.object.id;
        break;
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const parent = event.data.object.parent?.subscription_details?.subscription;
        subscriptionId = typeof parent === 'string' ? parent : (parent?.id ?? null);
        break;
      }
      default:
        return { accountId: null, outcome: `ignored: ${event.type} is not used` };
    }
    if (!subscriptionId) return { accountId: hintAccountId ?? null, outcome: 'ignored: no subscription' };
    return this.#sync(subscriptionId, hintAccountId);
  }

  /** Reads the subscription's current state from Stripe and makes its account follow it. */
  async #sync(subscriptionId: string, hintAccountId?: string) {
    const { stripe, accounts } = this.deps;
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
    const accountId = subscription.metadata?.account_id ?? hintAccountId;
    const account =
      (accountId ? await accounts.findSummaryById(accountId) : undefined) ??
      (await accounts.findSummaryByStripeCustomer(customerId));
    if (!account) return { accountId: null, outcome: `ignored: no account for ${subscription.id}` };
    const billed = this.#billedState(subscription, account);
    if (typeof billed === 'string') return { accountId: account.account_id, account, outcome: `ignored: ${billed}` };
    const change = await accounts.applyBilledSubscription(account.account_id, billed);
    const updated = (await accounts.findSummaryById(account.account_id)) as AccountSummary;
    return { accountId: account.account_id, account: updated, outcome: describe(subscription, change) };
  }

  /** Stripe's subscription in this service's terms, or why it does not apply to the account. */
  #billedState(subscription: Stripe.Subscription, account: AccountSummary): BilledSubscription | string {
    const current = account.billing.subscriptionId;
    const item = subscription.items.data[0];
    if (!item) return `${subscription.id} has no items`;
    const plan = this.planOfPrice(item.price.id);
    if (!plan) return `${subscription.id} sells price ${item.price.id}, which is no plan of this service`;
    const now = this.deps.clock.now();
    if (LIVE.has(subscription.status)) {
      // A second live subscription never silently replaces the one the account follows.
      if (current && current !== subscription.id && LIVE.has(account.billing.status ?? '')) {
        return `the account follows ${current}, still ${account.billing.status}`;
      }
      const periodEnd = ms(subscription.cancel_at ?? item.current_period_end);
      const cancelling = subscription.cancel_at_period_end || subscription.cancel_at !== null;
      return {
        plan,
        periodStart: ms(item.current_period_start),
        periodEnd: Math.min(periodEnd, ms(item.current_period_end)),
        cancelledAt: cancelling ? ms(subscription.canceled_at ?? Math.floor(now / 1000)) : null,
        stripeSubscriptionId: subscription.id,
        stripeStatus: subscription.status,
      };
    }
    if (OVER.has(subscription.status)) {
      // Only the subscription the account follows can end its plan (an abandoned checkout cannot).
      if (current !== subscription.id) return `${subscription.id} is ${subscription.status} and not the account's`;
      const endedAt = subscription.ended_at ? ms(subscription.ended_at) : now;
      return {
        plan,
        periodStart: Math.min(account.subscription.periodStart, endedAt),
        periodEnd: endedAt,
        cancelledAt: ms(subscription.canceled_at ?? Math.floor(endedAt / 1000)),
        stripeSubscriptionId: subscription.id,
        stripeStatus: subscription.status,
      };
    }
    return `${subscription.id} is ${subscription.status}`;
  }

  async #customerOf(account: AccountSummary): Promise<string> {
    if (account.billing.customerId) return account.billing.customerId;
    const customer = await this.deps.stripe.customers.create(
      { email: account.email, metadata: { account_id: account.account_id } },
      // One customer per account even if two checkouts start at once.
      { idempotencyKey: `customer-${account.account_id}` },
    );
    await this.deps.accounts.setStripeCustomer(account.account_id, customer.id);
    return customer.id;
  }

  /**
   * Links the account to the Stripe customer of its checkout unless it has one. A customer
   * already linked to another account is not linked (a customer belongs to one account): that
   * account is returned instead, whether it was linked before or by a concurrent request.
   */
  async #rememberCustomer(
    account: AccountSummary,
    customer: string | Stripe.Customer | Stripe.DeletedCustomer | null,
  ): Promise<ForeignCustomer | undefined> {
    const { accounts } = this.deps;
    const customerId = typeof customer === 'string' ? customer : customer?.id;
    if (!customerId) return undefined;
    const linkedElsewhere = async () => {
      const owner = await accounts.findSummaryByStripeCustomer(customerId);
      return owner && owner.account_id !== account.account_id
        ? { customerId, linkedAccountId: owner.account_id }
        : undefined;
    };
    const foreign = await linkedElsewhere();
    if (foreign || account.billing.customerId) return foreign;
    try {
      await accounts.setStripeCustomer(account.account_id, customerId);
    } catch (error) {
      // The unique index refused it: another account took the customer since the check above.
      const taken = await linkedElsewhere();
      if (taken) return taken;
      throw error;
    }
    return undefined;
  }

  /**
   * A correctly signed checkout.session.completed naming another account's Stripe customer. It
   * can never apply, so it is refused once: the reason goes to the log and to the event's stored
   * outcome, and the answer is 2xx, or Stripe would deliver it again for days.
   */
  #refuseForeignCustomer(event: Stripe.Event, accountId: string, foreign: ForeignCustomer) {
    const outcome = `refused: customer ${foreign.customerId} belongs to account ${foreign.linkedAccountId}, not ${accountId}`;
    this.deps.log.warn({ event: event.id, type: event.type, accountId, ...foreign }, 'stripe event refused');
    return { accountId, outcome };
  }

  /** Mails and notices of one event, after it was applied for the first time. */
  async #announce(event: Stripe.Event, account: AccountSummary): Promise<void> {
    const plan = PLANS[account.plan];
    let notice: BillingNotice | undefined;
    if (event.type === 'customer.subscription.updated') {
      const previous = event.data.previous_attributes as Partial<Stripe.Subscription> | undefined;
      const becameCancelling = previous?.cancel_at_period_end === false && event.data.object.cancel_at_period_end;
      if (becameCancelling && isPaid(plan) && account.subscription.periodEnd !== null) {
        notice = {
          type: 'subscription.ending',
          accountId: account.account_id,
          email: account.email,
          plan: plan.id,
          endsAt: account.subscription.periodEnd,
        };
      }
    } else if (event.type === 'invoice.payment_failed') {
      const next = event.data.object.next_payment_attempt;
      notice = {
        type: 'payment.failed',
        accountId: account.account_id,
        email: account.email,
        plan: plan.id,
        nextAttemptAt: next ? ms(next) : null,
      };
    }
    if (!notice) return;
    // A mail that cannot go out must not make Stripe redeliver an event that is applied.
    await this.deps.notices?.onBillingNotice(notice, event.id).catch((error: unknown) => {
      this.deps.log.warn({ err: error, notice: notice.type, accountId: notice.accountId }, 'billing mail not sent');
    });
    await Promise.allSettled([...this.#noticeListeners].map(async (listener) => listener(notice)));
  }
}

function describe(subscription: Stripe.Subscription, change: PlanChange | undefined): string {
  const base = `applied: ${subscription.id} ${subscription.status}${subscription.cancel_at_period_end ? ' (cancels at period end)' : ''}`;
  return change ? `${base}; plan ${change.from} -> ${change.to}${change.ended ? ' (ended)' : ''}` : base;
}

const invalidSignature = (detail: string) =>
  appError('invalid_signature', `The webhook signature could not be verified: ${detail}`);

const checkoutNotFound = () => appError('checkout_not_found', 'No checkout session of this account with that id.');
