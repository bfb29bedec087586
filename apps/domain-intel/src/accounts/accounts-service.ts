import { type Clock, hashSecret } from '@repo/server-kit';
import { LRUCache } from 'lru-cache';
import type { AccountEventListener } from '../delivery/account-events.ts';
import { appError } from '../error-catalogue.ts';
import type { AccountsRepository, KeyOwnerRow } from './accounts-repository.ts';
import { generateApiKey, isWellFormedApiKey } from './api-keys.ts';
import { addUtcMonths, type EffectiveSubscription, effectiveSubscription } from './billing.ts';
import type { Caller } from './caller.ts';
import { normalizeEmail } from './email.ts';
import { newId } from './ids.ts';
import { type PlanChange, type PlanChangeListener, PlanChangeListeners } from './plan-changes.ts';
import { isPaid, isPlanId, PLAN_IDS, PLANS, type Plan, type PlanId } from './plans.ts';

/** How often `last_used_at` is written for a busy key: once a minute is enough to show. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface IssuedKey {
  key_id: string;
  /** The only time the key is ever shown. */
  key: string;
  prefix: string;
}

export interface AccountSummary {
  account_id: string;
  email: string;
  plan: PlanId;
  subscription: EffectiveSubscription;
  /** Stripe's side, when the plan is billed there (null fields: set by the operator, or never bought). */
  billing: AccountBilling;
  /** Whether the owner gets the 80 % and 100 % quota mails (the quota webhooks go out either way). */
  quota_mails: boolean;
}

export interface AccountBilling {
  customerId: string | null;
  subscriptionId: string | null;
  /** Stripe's subscription status: active, past_due (a payment failed; Stripe is retrying), canceled, … */
  status: string | null;
}

/** A subscription as billing (Stripe) says it stands, in this service's terms. */
export interface BilledSubscription {
  plan: PlanId;
  periodStart: number;
  periodEnd: number;
  /** When the cancellation was asked for; null while it renews. */
  cancelledAt: number | null;
  stripeSubscriptionId: string;
  stripeStatus: string;
}

const unauthorized = (code: 'missing_key' | 'invalid_key' | 'key_revoked', message: string) =>
  appError(code, message, {
    headers: { 'WWW-Authenticate': `Bearer realm="domain-intel", error="invalid_token"` },
  });

export interface AccountsServiceOptions {
  /**
   * How long a key's owner row may be reused without asking the database (ms; 0 disables).
   * Changes made through this service invalidate it at once; a change made by another
   * instance is seen within this time.
   */
  keyCacheTtlMs: number;
  /** Told about key and subscription events (sent to the account's webhooks). */
  onEvent?: AccountEventListener;
}

/** Accounts, subscriptions and API keys: the rules. Storage is the repository's. */
export class AccountsService {
  readonly #keyOwners: LRUCache<string, KeyOwnerRow> | undefined;
  readonly #planChanges = new PlanChangeListeners();
  readonly #onEvent: AccountEventListener;

  constructor(
    private readonly repository: AccountsRepository,
    private readonly clock: Clock,
    options: AccountsServiceOptions = { keyCacheTtlMs: 0 },
  ) {
    this.#onEvent = options.onEvent ?? (() => undefined);
    if (options.keyCacheTtlMs > 0) {
      // perf.now-based TTLs would ignore the test clock; expiry follows the service's clock.
      this.#keyOwners = new LRUCache({ max: 10_000, ttl: options.keyCacheTtlMs, perf: { now: () => clock.now() } });
    }
  }

  async signUp(input: { email: unknown; plan?: PlanId }): Promise<{ account: AccountSummary; key: IssuedKey }> {
    const email = normalizeEmail(input.email);
    const plan = PLANS[input.plan ?? 'free'];
    if (await this.repository.findAccountByEmail(email)) {
      throw appError('email_taken', `An account with ${email} already exists; use the key issued for it.`);
    }
    const now = this.clock.now();
    const accountId = newId('acc');
    try {
      await this.repository.createAccount(
        { id: accountId, email, created_at: now },
        { account_id: accountId, plan: plan.id, ...this.#newPeriod(plan, now), cancelled_at: null, updated_at: now },
      );
    } catch (error) {
      // Two sign-ups with one address at the same moment: the unique index decides.
      if (await this.repository.findAccountByEmail(email)) {
        throw appError('email_taken', `An account with ${email} already exists.`, { cause: error });
      }
      throw error;
    }
    const key = await this.#issueKey(accountId, 'default');
    return { account: await this.summary(email), key };
  }

  async summary(emailInput: string): Promise<AccountSummary> {
    const summary = await this.findSummary(emailInput);
    if (!summary) throw appError('account_not_found', `No account with ${normalizeEmail(emailInput)}.`);
    return summary;
  }

  /** The account with this e-mail, or undefined when there is none. */
  async findSummary(emailInput: string): Promise<AccountSummary | undefined> {
    const account = await this.repository.findAccountByEmail(normalizeEmail(emailInput));
    return account ? this.#summaryOf(account) : undefined;
  }

  /** The account with this id, or undefined. */
  async findSummaryById(accountId: string): Promise<AccountSummary | undefined> {
    const account = await this.repository.findAccountById(accountId);
    return account ? this.#summaryOf(account) : undefined;
  }

  /** The account billed to this Stripe customer, or undefined. */
  async findSummaryByStripeCustomer(customerId: string): Promise<AccountSummary | undefined> {
    const accountId = await this.repository.findAccountIdByStripeCustomer(customerId);
    return accountId ? this.findSummaryById(accountId) : undefined;
  }

  /** Turns the quota mails of an account on or off (the dashboard's setting). */
  async setQuotaMails(accountId: string, on: boolean): Promise<void> {
    await this.repository.updateAccount(accountId, { quota_mails: on ? 1 : 0 });
  }

  async #summaryOf(account: { id: string; email: string; quota_mails: number }): Promise<AccountSummary> {
    const subscription = await this.repository.findSubscription(account.id);
    if (!subscription) throw new Error(`account ${account.id} has no subscription row`);
    const plan = planOf(subscription.plan);
    return {
      account_id: account.id,
      email: account.email,
      plan: plan.id,
      subscription: effectiveSubscription(plan, subscription, this.clock.now()),
      billing: {
        customerId: subscription.stripe_customer_id ?? null,
        subscriptionId: subscription.stripe_subscription_id ?? null,
        status: subscription.billing_status ?? null,
      },
      quota_mails: account.quota_mails !== 0,
    };
  }

  /** Called after every plan change (saved items over a smaller plan's limits are paused when read, never deleted). */
  onPlanChange(listener: PlanChangeListener): () => void {
    return this.#planChanges.add(listener);
  }

  /** Remembers the account's Stripe customer (created at its first checkout). */
  async setStripeCustomer(accountId: string, customerId: string): Promise<void> {
    await this.repository.updateSubscription(accountId, {
      stripe_customer_id: customerId,
      updated_at: this.clock.now(),
    });
  }

  /**
   * Makes the account follow a Stripe subscription as it stands now. Returns the plan change it
   * caused (listeners already told), or undefined when the plan whose limits apply is the same.
   */
  async applyBilledSubscription(accountId: string, billed: BilledSubscription): Promise<PlanChange | undefined> {
    const before = await this.findSummaryById(accountId);
    if (!before) throw appError('account_not_found', `No account ${accountId}.`);
    this.#forgetAccount(accountId);
    await this.repository.updateSubscription(accountId, {
      plan: billed.plan,
      period_start: billed.periodStart,
      period_end: billed.periodEnd,
      cancelled_at: billed.cancelledAt,
      stripe_subscription_id: billed.stripeSubscriptionId,
      billing_status: billed.stripeStatus,
      updated_at: this.clock.now(),
    });
    const after = (await this.findSummaryById(accountId)) as AccountSummary;
    return this.#announcePlanChange(before, after, 'billing');
  }

  async #announcePlanChange(
    before: AccountSummary,
    after: AccountSummary,
    source: PlanChange['source'],
  ): Promise<PlanChange | undefined> {
    const endedBefore = before.subscription.status === 'ended';
    const endedAfter = after.subscription.status === 'ended';
    if (before.plan === after.plan && endedBefore === endedAfter) return undefined;
    const change: PlanChange = {
      accountId: after.account_id,
      email: after.email,
      from: before.plan,
      to: after.plan,
      ended: endedAfter,
      source,
    };
    await this.#planChanges.notify(change);
    return change;
  }

  /**
   * The plan in force and the e-mail of each account (for background work over many
   * accounts): a cancelled plan past its period counts as Free.
   */
  async plansOf(accountIds: readonly string[]): Promise<Map<string, { plan: Plan; email: string }>> {
    const rows = await this.repository.accountsWithSubscriptions([...new Set(accountIds)]);
    const now = this.clock.now();
    return new Map(
      rows.map((row) => {
        const plan = planOf(row.plan);
        const ended = effectiveSubscription(plan, row, now).status === 'ended';
        return [row.id, { plan: ended ? PLANS.free : plan, email: row.email }];
      }),
    );
  }

  async createKey(email: string, name = 'default'): Promise<IssuedKey> {
    const { account_id } = await this.summary(email);
    return this.#issueKey(account_id, name);
  }

  async listKeys(email: string) {
    const { account_id } = await this.summary(email);
    const keys = await this.repository.listKeys(account_id);
    return keys.map((key) => ({
      key_id: key.id,
      prefix: key.prefix,
      name: key.name,
      created_at: iso(key.created_at),
      last_used_at: key.last_used_at === null ? null : iso(key.last_used_at),
      revoked_at: key.revoked_at === null ? null : iso(key.revoked_at),
    }));
  }

  async revokeKey(email: string, keyId: string): Promise<void> {
    const key = await this.#ownedKey(email, keyId);
    this.#forgetAccount(key.account_id);
    if (!(await this.repository.revokeKey(key.id, this.clock.now()))) {
      throw appError('key_already_revoked', `Key ${keyId} is already revoked.`);
    }
    this.#onEvent(key.account_id, 'key.revoked', { key_id: key.id });
  }

  /** A new key with the old one's name; the old one stops working at once. */
  async rotateKey(email: string, keyId: string): Promise<IssuedKey> {
    const key = await this.#ownedKey(email, keyId);
    if (key.revoked_at !== null) throw appError('key_already_revoked', `Key ${keyId} is revoked.`);
    const issued = await this.#issueKey(key.account_id, key.name);
    this.#forgetAccount(key.account_id);
    await this.repository.revokeKey(key.id, this.clock.now());
    this.#onEvent(key.account_id, 'key.revoked', { key_id: key.id, replaced_by: issued.key_id });
    return issued;
  }

  /** Upgrade or downgrade, effective now with a new billing period; clears a pending cancellation. */
  async setPlan(email: string, planId: string): Promise<AccountSummary> {
    if (!isPlanId(planId)) {
      throw appError('invalid_plan', `Unknown plan "${planId}". Plans: ${PLAN_IDS.join(', ')}.`);
    }
    const before = await this.summary(email);
    const now = this.clock.now();
    const plan = PLANS[planId];
    this.#forgetAccount(before.account_id);
    await this.repository.updateSubscription(before.account_id, {
      plan: plan.id,
      ...this.#newPeriod(plan, now),
      cancelled_at: null,
      updated_at: now,
    });
    const after = await this.summary(email);
    await this.#announcePlanChange(before, after, 'operator');
    return after;
  }

  /** Cancels a paid plan: its keys keep working until the end of the billing period. */
  async cancelSubscription(email: string): Promise<AccountSummary> {
    const summary = await this.summary(email);
    const plan = PLANS[summary.plan];
    if (!isPaid(plan)) {
      throw appError('nothing_to_cancel', 'The Free plan has no subscription to cancel; it never expires.');
    }
    if (summary.subscription.status !== 'active') {
      throw appError('already_cancelled', 'This subscription is already cancelled.');
    }
    const now = this.clock.now();
    this.#forgetAccount(summary.account_id);
    await this.repository.updateSubscription(summary.account_id, {
      // Pin the renewed period so the cancellation ends it, not the first period ever billed.
      period_start: summary.subscription.periodStart,
      period_end: summary.subscription.periodEnd,
      cancelled_at: now,
      updated_at: now,
    });
    this.#onEvent(
      summary.account_id,
      'subscription.ending',
      { plan: summary.plan, ends_at: new Date(summary.subscription.periodEnd!).toISOString() },
      `subscription.ending:${summary.account_id}:${now}`,
    );
    return this.summary(email);
  }

  /**
   * Resolves the Authorization header to a caller, or throws the 401 that says why not. Given
   * every Authorization header of the request (Node keeps only the first in `headers`), more
   * than one is refused: a valid key followed by junk must not pass because the junk was dropped.
   */
  async authenticate(authorization: string | readonly string[] | undefined): Promise<Caller> {
    const keyHash = hashSecret(wellFormedKey(authorization));
    const owner = await this.#findKeyOwner(keyHash);
    if (!owner) throw unauthorized('invalid_key', 'The API key is not valid.');
    const now = this.clock.now();
    const caller = this.#callerOf(owner, now);
    if (owner.last_used_at === null || now - owner.last_used_at >= LAST_USED_RESOLUTION_MS) {
      owner.last_used_at = now;
      await this.repository.touchKey(owner.key_id, now);
    }
    return caller;
  }

  /**
   * The account of a key that `authenticate` refuses only because its paid plan ended (cancelled,
   * and past its billing period): its address, the plan and when it ended. Undefined for any other
   * key, a revoked one included. For the dashboard's sign-in, which says so to whoever holds the key
   * and the address instead of "no active account".
   */
  async endedPlanOf(
    key: string,
  ): Promise<{ accountId: string; email: string; plan: Plan; endedAt: number } | undefined> {
    if (!isWellFormedApiKey(key)) return undefined;
    const owner = await this.#findKeyOwner(hashSecret(key));
    if (!owner || owner.revoked_at !== null) return undefined;
    const plan = planOf(owner.plan);
    const subscription = effectiveSubscription(plan, owner, this.clock.now());
    if (subscription.status !== 'ended' || subscription.periodEnd === null) return undefined;
    return { accountId: owner.account_id, email: owner.email, plan, endedAt: subscription.periodEnd };
  }

  /**
   * `authenticate` without waiting, for the common case: the caller when the key's owner row is
   * cached and its last use needs no write, undefined when `authenticate` has to go to the
   * database. Refuses (throws the same 401s) as `authenticate` does.
   */
  authenticateCached(authorization: string | readonly string[] | undefined): Caller | undefined {
    const owner = this.#keyOwners?.get(hashSecret(wellFormedKey(authorization)));
    if (!owner) return undefined;
    const now = this.clock.now();
    if (owner.last_used_at === null || now - owner.last_used_at >= LAST_USED_RESOLUTION_MS) return undefined;
    return this.#callerOf(owner, now);
  }

  /** The caller a key's owner row stands for, or the 401 that says why it stands for none. */
  #callerOf(owner: KeyOwnerRow, now: number): Caller {
    if (owner.revoked_at !== null) throw unauthorized('key_revoked', 'This API key has been revoked.');
    const plan = planOf(owner.plan);
    if (effectiveSubscription(plan, owner, now).status === 'ended') {
      throw unauthorized('key_revoked', 'The subscription of this key ended with its billing period.');
    }
    return { accountId: owner.account_id, keyId: owner.key_id, email: owner.email, plan };
  }

  async #findKeyOwner(keyHash: string): Promise<KeyOwnerRow | undefined> {
    const cached = this.#keyOwners?.get(keyHash);
    if (cached) return cached;
    const owner = await this.repository.findKeyOwnerByHash(keyHash);
    if (owner) this.#keyOwners?.set(keyHash, owner);
    return owner;
  }

  #forgetAccount(accountId: string): void {
    if (!this.#keyOwners) return;
    for (const [hash, owner] of this.#keyOwners.entries()) {
      if (owner.account_id === accountId) this.#keyOwners.delete(hash);
    }
  }

  async #issueKey(accountId: string, name: string): Promise<IssuedKey> {
    const { key, hash, prefix } = generateApiKey();
    const id = newId('key');
    await this.repository.insertKey({
      id,
      account_id: accountId,
      key_hash: hash,
      prefix,
      name,
      created_at: this.clock.now(),
      last_used_at: null,
      revoked_at: null,
    });
    this.#onEvent(accountId, 'key.created', { key_id: id, prefix, name });
    return { key_id: id, key, prefix };
  }

  async #ownedKey(email: string, keyId: string) {
    const { account_id } = await this.summary(email);
    const key = await this.repository.findKey(keyId);
    if (!key || key.account_id !== account_id) {
      throw appError('key_not_found', `No key ${keyId} on this account.`);
    }
    return key;
  }

  #newPeriod(plan: Plan, now: number) {
    return { period_start: now, period_end: isPaid(plan) ? addUtcMonths(now, 1) : null };
  }
}

/** The key of the Authorization header(s), or the 401 that says what is wrong with them. */
function wellFormedKey(authorization: string | readonly string[] | undefined): string {
  const key = parseBearer(authorization);
  if (!isWellFormedApiKey(key)) throw unauthorized('invalid_key', 'The API key is not valid.');
  return key;
}

/** Strict `Authorization: Bearer <key>`: one header, one scheme, one space, one token, nothing else. */
function parseBearer(headers: string | readonly string[] | undefined): string {
  if (typeof headers !== 'string' && headers !== undefined && headers.length > 1) {
    throw unauthorized('invalid_key', `Send one Authorization header; this request has ${headers.length}.`);
  }
  const header = typeof headers === 'string' ? headers : headers?.[0];
  if (header === undefined || header.trim() === '') {
    throw unauthorized('missing_key', 'Send your API key as "Authorization: Bearer di_live_…".');
  }
  const match = /^Bearer ([\x21-\x7e]+)$/.exec(header);
  if (!match?.[1]) {
    throw unauthorized('invalid_key', 'The Authorization header must be exactly "Bearer <key>".');
  }
  return match[1];
}

function planOf(id: string): Plan {
  if (!isPlanId(id)) throw new Error(`unknown plan in database: ${id}`);
  return PLANS[id];
}

const iso = (time: number) => new Date(time).toISOString();
