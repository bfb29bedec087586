import type { Clock, Dialect } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { DB } from '../db/schema.ts';
import { applyFilters, applySort, feedBase } from './feed-query.ts';
import { FEED_COLUMNS, type FeedRecord, toFeedRecord } from './feed-row.ts';
import type { FeedFilters, FeedPage } from './filters.ts';

const EXPORT_BATCH = 1_000;

/**
 * Reads the feed. Counting every match of a broad filter over millions of rows costs far
 * more than reading one page, and the feed changes about hourly, so a `total` is reused for
 * the same filters for a few seconds (FEED_COUNT_CACHE_SECONDS); the pipeline clears it
 * after every run in this process.
 */
export class FeedService {
  readonly #totals: LRUCache<string, number> | null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
    options: { countCacheSeconds: number },
  ) {
    this.#totals =
      options.countCacheSeconds > 0
        ? new LRUCache({ max: 2_000, ttl: options.countCacheSeconds * 1_000, ttlAutopurge: false })
        : null;
  }

  /**
   * One page and the total. The page is found in two steps: the domains of the page from one
   * covering index (skipping `offset` entries costs index steps only), then those rows.
   */
  async list(filters: FeedFilters, page: FeedPage): Promise<{ records: FeedRecord[]; total: number }> {
    const now = this.clock.now();
    const pageQuery = applySort(
      applyFilters(feedBase(this.db).select('domain'), filters, now, this.dialect),
      page.sort,
      this.dialect,
    )
      .limit(page.limit)
      .offset(page.offset);
    const [keys, total] = await Promise.all([pageQuery.execute(), this.#count(filters, now)]);
    if (keys.length === 0) return { records: [], total };
    const order = keys.map((key) => key.domain);
    const rows = await feedBase(this.db).select(FEED_COLUMNS).where('domain', 'in', order).execute();
    const byDomain = new Map(rows.map((row) => [row.domain, row]));
    const records = order.flatMap((domain) => {
      const row = byDomain.get(domain);
      return row ? [toFeedRecord(row, now)] : [];
    });
    return { records, total };
  }

  /** The feed record of one domain in any state, or null when it is not in the pipeline. */
  async byDomain(domain: string): Promise<FeedRecord | null> {
    const row = await feedBase(this.db).select(FEED_COLUMNS).where('domain', '=', domain).executeTakeFirst();
    return row ? toFeedRecord(row, this.clock.now()) : null;
  }

  /**
   * Every record matching the filters, in domain order, read in keyset batches so the export
   * holds no long-running cursor or transaction and memory stays flat at any size.
   */
  async *stream(filters: FeedFilters): AsyncGenerator<FeedRecord> {
    const now = this.clock.now();
    let after: string | null = null;
    for (;;) {
      let query = applyFilters(feedBase(this.db).select(FEED_COLUMNS), filters, now, this.dialect);
      if (after !== null) query = query.where('domain', '>', after);
      const rows = await query.orderBy('domain', 'asc').limit(EXPORT_BATCH).execute();
      for (const row of rows) yield toFeedRecord(row, now);
      if (rows.length < EXPORT_BATCH) return;
      after = rows[rows.length - 1]!.domain;
    }
  }

  /** Forget cached totals (after the pipeline changed the feed). */
  invalidate(): void {
    this.#totals?.clear();
  }

  async #count(filters: FeedFilters, now: number): Promise<number> {
    const key = JSON.stringify(filters);
    const cached = this.#totals?.get(key);
    if (cached !== undefined) return cached;
    const row = await applyFilters(feedBase(this.db), filters, now, this.dialect)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const total = Number(row.total);
    this.#totals?.set(key, total);
    return total;
  }
}
