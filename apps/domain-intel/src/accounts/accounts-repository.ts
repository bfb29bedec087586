import type { Kysely } from 'kysely';
import { isPostgres } from '../db/is-postgres.ts';
import type { ApiKeyTable, DB, SubscriptionTable } from '../db/schema.ts';

export interface KeyOwnerRow {
  key_id: string;
  revoked_at: number | null;
  last_used_at: number | null;
  account_id: string;
  email: string;
  plan: string;
  period_start: number;
  period_end: number | null;
  cancelled_at: number | null;
}

/** Database access for accounts, subscriptions and keys; no business rules here. */
export class AccountsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async createAccount(
    account: { id: string; email: string; created_at: number },
    subscription: SubscriptionTable,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values(account).execute();
      await trx.insertInto('subscriptions').values(subscription).execute();
    });
  }

  findAccountByEmail(email: string) {
    return this.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findAccountById(accountId: string) {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  }

  async findAccountIdByStripeCustomer(customerId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('subscriptions')
      .select('account_id')
      .where('stripe_customer_id', '=', customerId)
      .executeTakeFirst();
    return row?.account_id;
  }

  findSubscription(accountId: string) {
    return this.db.selectFrom('subscriptions').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  }

  /** The e-mail and subscription of each of these accounts. */
  accountsWithSubscriptions(accountIds: readonly string[]) {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('accounts')
      .innerJoin('subscriptions', 'subscriptions.account_id', 'accounts.id')
      .select(['accounts.id', 'accounts.email', 'plan', 'period_start', 'period_end', 'cancelled_at'])
      .where('accounts.id', 'in', accountIds)
      .execute();
  }

  async updateAccount(accountId: string, changes: { quota_mails: number }): Promise<void> {
    await this.db.updateTable('accounts').set(changes).where('id', '=', accountId).execute();
  }

  async updateSubscription(accountId: string, changes: Partial<SubscriptionTable>): Promise<void> {
    await this.db.updateTable('subscriptions').set(changes).where('account_id', '=', accountId).execute();
  }

  async insertKey(key: ApiKeyTable): Promise<void> {
    await this.db.insertInto('api_keys').values(key).execute();
  }

  listKeys(accountId: string) {
    return this.db
      .selectFrom('api_keys')
      .select(['id', 'prefix', 'name', 'created_at', 'last_used_at', 'revoked_at'])
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  }

  findKey(keyId: string) {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
  }

  /** Marks a key revoked; returns false when it does not exist or was already revoked. */
  async revokeKey(keyId: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The key with its account and subscription, in one query: the hot path of every call. */
  findKeyOwnerByHash(keyHash: string): Promise<KeyOwnerRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .innerJoin('subscriptions', 'subscriptions.account_id', 'api_keys.account_id')
      .select([
        'api_keys.id as key_id',
        'api_keys.revoked_at',
        'api_keys.last_used_at',
        'accounts.id as account_id',
        'accounts.email',
        'subscriptions.plan',
        'subscriptions.period_start',
        'subscriptions.period_end',
        'subscriptions.cancelled_at',
      ])
      .where('api_keys.key_hash', '=', keyHash)
      .executeTakeFirst();
  }

  async touchKey(keyId: string, at: number): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
  }
}

/**
 * Holds the account until the transaction `trx` ends, so a check of a plan limit and the insert
 * that follows it (saved filters, watched domains) happen one at a time per account: two
 * concurrent adds at the limit cannot both see room. PostgreSQL locks the account row
 * (`SELECT … FOR UPDATE`); SQLite has no row locks, so a no-op write to the row takes the
 * database's write lock at once (within one process Kysely already runs one SQLite transaction
 * at a time; this also holds a CLI process beside the server until the first one commits).
 */
export async function lockAccount(trx: Kysely<DB>, accountId: string): Promise<void> {
  if (!trx.isTransaction) throw new Error('lockAccount needs a transaction.');
  if (isPostgres(trx)) {
    await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
  } else {
    await trx
      .updateTable('accounts')
      .set((eb) => ({ email: eb.ref('email') }))
      .where('id', '=', accountId)
      .execute();
  }
}
