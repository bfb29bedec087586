import type { Kysely, Selectable } from 'kysely';
import { lockAccount } from '../accounts/accounts-repository.ts';
import type { Plan } from '../accounts/plans.ts';
import type { DB, WatchedDomainTable } from '../db/schema.ts';
import { limitReached } from '../delivery/saved-filters.ts';
import type { WatchState } from './watch-states.ts';

export type WatchRow = Selectable<WatchedDomainTable>;

/** A watched row with its place in the account's list (1 = the oldest): over the plan's limit it is paused. */
export type RankedWatchRow = WatchRow & { rank: number };

/** The last row an account's plan lets it follow (rows after it, oldest first, are paused). */
export type FollowCutoff = Pick<WatchRow, 'created_at' | 'domain'>;

/** A watched row joined with the feed row the lifecycle keeps for the same name (tracked TLDs). */
export interface FeedEvidenceRow extends WatchRow {
  feed_status: string;
  feed_status_since: number;
  feed_expected_drop_at: number | null;
  feed_verified_at: number | null;
  feed_zone_date: string | null;
}

/** How one watched row changes after a round looked at it. */
export interface WatchUpdate {
  state: WatchState;
  evidence: string | null;
  checkedAt: number;
  nextCheckAt: number;
  failures: number;
  /** The feed row state (status_since, status) this update took. */
  feedSeen?: { at: number; status: string };
}

const IN_CHUNK = 500;

/**
 * Watched domains: owner of `watched_domains` (only this file writes it). Adds take the
 * account lock, so concurrent adds at the plan's limit never pass it; rows over the limit
 * after a downgrade stay, paused (the oldest `limit` are followed).
 */
export class WatchlistStore {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Adds a name to the account's watchlist unless the plan's limit is reached; a name already
   * watched is left as it is (`added: false`).
   */
  async add(
    account: { accountId: string; plan: Plan },
    entry: { domain: string; tld: string; now: number },
  ): Promise<{ added: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      await lockAccount(trx, account.accountId);
      const existing = await trx
        .selectFrom('watched_domains')
        .select('domain')
        .where('account_id', '=', account.accountId)
        .where('domain', '=', entry.domain)
        .executeTakeFirst();
      if (existing) return { added: false };
      const { n } = await trx
        .selectFrom('watched_domains')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', account.accountId)
        .executeTakeFirstOrThrow();
      const limit = account.plan.maxWatchedDomains;
      if (Number(n) >= limit) throw limitReached('watched domains', account.plan, limit);
      await trx
        .insertInto('watched_domains')
        .values({
          account_id: account.accountId,
          domain: entry.domain,
          tld: entry.tld,
          status: 'unknown',
          status_since: null,
          expected_drop_at: null,
          evidence: null,
          checked_at: null,
          next_check_at: entry.now,
          feed_seen_at: null,
          feed_seen_status: null,
          created_at: entry.now,
        })
        .execute();
      return { added: true };
    });
  }

  /** Stops watching; false when the account was not watching the name. */
  async remove(accountId: string, domain: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('watched_domains')
      .where('account_id', '=', accountId)
      .where('domain', '=', domain)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** One page of an account's watchlist, oldest first (the order that decides what a limit pauses). */
  async page(
    accountId: string,
    page: { limit: number; offset: number },
  ): Promise<{ rows: RankedWatchRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('watched_domains')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'asc')
        .orderBy('domain', 'asc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      this.db
        .selectFrom('watched_domains')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((row, i) => ({ ...row, rank: page.offset + i + 1 })), total: Number(count.n) };
  }

  /** The rows of these names (every account watching them). */
  async rowsOf(domains: readonly string[]): Promise<WatchRow[]> {
    const rows: WatchRow[] = [];
    for (let i = 0; i < domains.length; i += IN_CHUNK) {
      rows.push(
        ...(await this.db
          .selectFrom('watched_domains')
          .selectAll()
          .where('domain', 'in', domains.slice(i, i + IN_CHUNK))
          .execute()),
      );
    }
    return rows;
  }

  /**
   * For each account holding more rows than `limitOf(account)` allows, its last followed row;
   * accounts within their limit (nearly all) are absent: nothing of theirs is paused.
   */
  async cutoffs(
    accountIds: readonly string[],
    limitOf: (accountId: string) => number,
  ): Promise<Map<string, FollowCutoff>> {
    const cutoffs = new Map<string, FollowCutoff>();
    const ids = [...new Set(accountIds)];
    for (let i = 0; i < ids.length; i += IN_CHUNK) {
      const counts = await this.db
        .selectFrom('watched_domains')
        .select(['account_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('account_id', 'in', ids.slice(i, i + IN_CHUNK))
        .groupBy('account_id')
        .execute();
      for (const { account_id, n } of counts) {
        const limit = limitOf(account_id);
        if (Number(n) <= limit) continue;
        const last = await this.db
          .selectFrom('watched_domains')
          .select(['created_at', 'domain'])
          .where('account_id', '=', account_id)
          .orderBy('created_at')
          .orderBy('domain')
          .limit(1)
          .offset(Math.max(0, limit - 1))
          .executeTakeFirst();
        cutoffs.set(account_id, last && limit > 0 ? last : { created_at: Number.NEGATIVE_INFINITY, domain: '' });
      }
    }
    return cutoffs;
  }

  /** The names whose RDAP re-check is due, soonest first, at most `limit` names (all their watchers). */
  async due(now: number, limit: number): Promise<WatchRow[]> {
    const names = await this.db
      .selectFrom('watched_domains')
      .select('domain')
      .where('next_check_at', '<=', now)
      .groupBy('domain')
      .orderBy((eb) => eb.fn.min('next_check_at'))
      .orderBy('domain')
      .limit(limit)
      .execute();
    return this.rowsOf(names.map((row) => row.domain));
  }

  /**
   * Watched rows whose name has lifecycle evidence they have not taken yet: a feed row in
   * another state than the last one applied (`feed_seen_at`, `feed_seen_status`).
   */
  feedEvidence(limit: number, domains?: readonly string[]): Promise<FeedEvidenceRow[]> {
    let query = this.db
      .selectFrom('watched_domains as w')
      .innerJoin('feed_domains as f', 'f.domain', 'w.domain')
      .selectAll('w')
      .select([
        'f.status as feed_status',
        'f.status_since as feed_status_since',
        'f.expected_drop_at as feed_expected_drop_at',
        'f.verified_at as feed_verified_at',
        'f.zone_date as feed_zone_date',
      ])
      .where((eb) =>
        eb.or([
          eb('w.feed_seen_at', 'is', null),
          eb('f.status_since', '>', eb.ref('w.feed_seen_at')),
          // Two moves in the same millisecond (the zone diff, then at once an RDAP re-check).
          eb.and([
            eb('f.status_since', '=', eb.ref('w.feed_seen_at')),
            eb('f.status', '<>', eb.ref('w.feed_seen_status')),
          ]),
        ]),
      );
    if (domains) query = query.where('w.domain', 'in', domains.length > 0 ? domains : ['']);
    return query.orderBy('f.status_since').orderBy('w.domain').limit(limit).execute();
  }

  /**
   * Writes what a round learnt about one row, if nobody changed its status meanwhile (another
   * worker, a crash's re-run): returns whether it applied.
   */
  async update(row: Pick<WatchRow, 'account_id' | 'domain' | 'status'>, update: WatchUpdate): Promise<boolean> {
    const result = await this.db
      .updateTable('watched_domains')
      .set({
        status: update.state.status,
        status_since: update.state.statusSince,
        expected_drop_at: update.state.expectedDropAt,
        evidence: update.evidence,
        checked_at: update.checkedAt,
        next_check_at: update.nextCheckAt,
        check_failures: update.failures,
        ...(update.feedSeen ? { feed_seen_at: update.feedSeen.at, feed_seen_status: update.feedSeen.status } : {}),
      })
      .where('account_id', '=', row.account_id)
      .where('domain', '=', row.domain)
      .where('status', '=', row.status)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Moves the next check of rows the round did not look at (paused, or followed by the lifecycle). */
  async postpone(rows: readonly Pick<WatchRow, 'account_id' | 'domain'>[], until: number): Promise<void> {
    for (const row of rows) {
      await this.db
        .updateTable('watched_domains')
        .set({ next_check_at: until })
        .where('account_id', '=', row.account_id)
        .where('domain', '=', row.domain)
        .execute();
    }
  }
}

/** Whether a row comes after its account's last followed row (oldest first), i.e. is paused. */
export function isPaused(row: Pick<WatchRow, 'created_at' | 'domain'>, cutoff: FollowCutoff | undefined): boolean {
  if (!cutoff) return false;
  return row.created_at > cutoff.created_at || (row.created_at === cutoff.created_at && row.domain > cutoff.domain);
}
