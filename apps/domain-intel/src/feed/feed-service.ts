import { type FeedRecord, MAX_LIMIT } from '@repo/contracts/domain-intel';
import type { FeedFilters, FeedIndex, FeedPage } from '@repo/feed-index';
import { type Clock, type Dialect, prepareQuery } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { DB } from '../db/schema.ts';
import { type FeedIndexCeiling, indexRowCeiling, loadFeedIndex, measuredBytesPerRow } from './feed-index-load.ts';
import type { FeedIndexStore } from './feed-index-store.ts';
import { applyFilters, applySort, feedBase } from './feed-query.ts';
import { FEED_COLUMNS, type FeedRowData, toFeedRecord } from './feed-row.ts';
import { FeedRowCache } from './feed-row-cache.ts';
import { type FeedRowJson, feedRowJson, recordJson } from './feed-row-json.ts';

const EXPORT_BATCH = 1_000;
const DAY_MS = 86_400_000;
/** Filters whose matches the index keeps (a bitmap each: 1.2 MB at 10 M rows). */
const MATCHES_CACHED = 16;
/** After a failed build, the same feed version is tried again no sooner than this (the SQL path answers meanwhile). */
const RETRY_FAILED_BUILD_MS = 60_000;

export interface FeedServiceOptions {
  countCacheSeconds: number;
  /** `memory`: answer pages and totals from an in-memory FeedIndex; `off`: SQL only. */
  index: 'memory' | 'off';
  /** How often (at most) a request checks the feed version for a change made elsewhere, in seconds. */
  indexCheckSeconds: number;
  /**
   * How long the index of the previous feed version keeps answering while the current one builds,
   * in seconds, counted from when this process saw the version move (0: the SQL path answers during
   * every rebuild).
   */
  indexStaleSeconds?: number;
  /** Told once per failed build of the index of a feed version (the SQL path keeps answering). */
  onIndexError?: (error: unknown, version: number) => void;
  /** The index build worker's entry (tests give one that fails); by default feed-build-worker-entry.js. */
  indexWorker?: URL;
  /** Rows of served pages kept for the current feed version, by count (0 or unset: every page's rows are read). */
  rowCacheRows?: number;
  /**
   * Drops older than this many days are left out of the index (0 or unset: none); a query that can
   * match them (no `dropped_after` within the retention) is answered by the SQL path.
   */
  indexRetentionDays?: number;
  /** The most rows the index holds (0 or unset: no ceiling); the oldest days of drops leave first. */
  indexMaxRows?: number;
  /** The index's memory ceiling in MB (0 or unset: none), turned into rows by indexRowCeiling. */
  indexMaxMb?: number;
  /** Told when the ceiling left drops out of an index: those dropped before `droppedSince` are answered by SQL. */
  onIndexCeiling?: (droppedSince: number, maxRows: number) => void;
  /**
   * The host's directory of index snapshots (FEED_INDEX_DIR): an index is mapped from there when its
   * feed version has one, else built by one process of the host (the build lock's holder) and
   * written there for the others; at start the newest one answers at once. Unset: every process
   * builds its own, nothing is written.
   */
  snapshots?: FeedIndexStore;
  /** Told when an index became the current one: built here, or mapped from a snapshot (the file). */
  onIndexReady?: (version: number, from: { built: true } | { mapped: string }) => void;
  /**
   * Told when a snapshot could not be mapped (the index is built instead), or older ones not pruned. A snapshot
   * that cannot be written fails its build (onIndexError; the SQL path answers, the build is retried).
   */
  onSnapshotError?: (error: unknown, version: number) => void;
}

/** The index build under way: which feed version it reads, and how to drop it when a newer one supersedes it. */
interface Build {
  version: number;
  done: Promise<FeedIndex | null>;
  abort: AbortController;
}

/**
 * Reads the feed. Counting every match of a broad filter over millions of rows costs far
 * more than reading one page, and the feed changes about hourly, so a `total` is reused for
 * the same filters for a few seconds (FEED_COUNT_CACHE_SECONDS); the pipeline clears it
 * after every run (invalidate).
 *
 * With FEED_INDEX=memory the feed's filter and sort columns are also held in memory
 * (FeedIndex) and pages and totals come from there; only the page's rows are read from the
 * database. The index is built in the background after start and after every change of the
 * feed version (bumped by invalidate, in any process). While the index of the new version builds
 * (seconds to minutes at millions of rows), the previous version's index keeps answering for at
 * most FEED_INDEX_STALE_SECONDS: a SQL count over millions of rows would cost seconds per call.
 * Before the first index is built, and past that window, the SQL path answers.
 * With a snapshot directory (FEED_INDEX_DIR, FeedIndexStore) the processes of a host share one copy:
 * an index is mapped from its version's snapshot when one exists (at start, the newest snapshot
 * answers at once, as the current or the previous index), else built by the process holding the
 * host's build lock, which writes the snapshot the others then map.
 * The rows of pages served from the index are kept in a row cache of the index's feed version
 * (FEED_ROW_CACHE_ROWS), so a hot page reads nothing from the database.
 */
export class FeedService {
  readonly #totals: LRUCache<string, number> | null;
  #index: FeedIndex | null = null;
  /** The index of an earlier feed version, answering while the current one builds, and since when it is out of date. */
  #previous: { index: FeedIndex; outdatedSince: number } | null = null;
  #building: Build | null = null;
  /** The feed version whose build failed last, and when it may be tried again. */
  #failed: { version: number; retryAt: number } | null = null;
  #checkedAt = Number.NEGATIVE_INFINITY;
  /** Bytes per row of the last index built large enough to tell (FEED_INDEX_MAX_MB); null before one. */
  #bytesPerRow: number | null = null;
  #knownVersion: number | null = null;
  /** When this process last looked for a snapshot of the feed version it has no index of (at the version-check cadence). */
  #lookedAt = Number.NEGATIVE_INFINITY;
  /** The feed version whose snapshot was refused (torn, foreign): built instead, not mapped again. */
  #refusedSnapshot: number | null = null;
  /** Whether the newest snapshot was looked for at start (as the previous index while the current one is found or built). */
  #startedFromSnapshot = false;
  readonly #rowCache: FeedRowCache | null;
  readonly #rowReaders = new Map<number, (...domains: string[]) => Promise<FeedRowData[]>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
    private readonly options: FeedServiceOptions,
  ) {
    this.#totals =
      options.countCacheSeconds > 0
        ? new LRUCache({ max: 2_000, ttl: options.countCacheSeconds * 1_000, ttlAutopurge: false })
        : null;
    this.#rowCache = options.rowCacheRows ? new FeedRowCache(options.rowCacheRows) : null;
  }

  /**
   * One page and the total. On the SQL path the page is found in two steps: the domains of the
   * page from one covering index (skipping `offset` entries costs index steps only), then those rows.
   */
  async list(filters: FeedFilters, page: FeedPage): Promise<{ records: FeedRecord[]; total: number }> {
    const { records, total } = await this.listJson(filters, page);
    // The JSON holds exactly the record (strings, numbers, booleans, nulls and a string array).
    return { records: records.map((record) => JSON.parse(record) as FeedRecord), total };
  }

  /** `list` with each record already written as the JSON /v1/domains sends (feed-row-json.ts). */
  async listJson(filters: FeedFilters, page: FeedPage): Promise<{ records: string[]; total: number }> {
    const { rows, total, now } = await this.#page(filters, page);
    return { records: rows.map((row) => recordJson(row, now)), total };
  }

  async #page(filters: FeedFilters, page: FeedPage): Promise<{ rows: FeedRowJson[]; total: number; now: number }> {
    const now = this.clock.now();
    const index = await this.#currentIndex();
    if (index?.covers(filters)) {
      // The index counts as it finds the page (a popcount of the matches): no cached total needed.
      const { domains, total } = index.page(filters, page, now);
      return { rows: await this.#rowsOf(domains, index.version), total, now };
    }
    const pageQuery = applySort(
      applyFilters(feedBase(this.db).select('domain'), filters, now, this.dialect),
      page.sort,
      this.dialect,
    )
      .limit(page.limit)
      .offset(page.offset);
    const [keys, total] = await Promise.all([pageQuery.execute(), this.#count(filters, now)]);
    const domains = keys.map((key) => key.domain);
    // Not cached: the SQL path answers when the index is missing or out of date, i.e. when no version can be trusted.
    return { rows: await this.#rowsOf(domains, null), total, now };
  }

  /**
   * The rows of `domains`, in that order (a domain gone from the table is left out). With the
   * index, rows come from the row cache of its feed version where they can; the rest are read
   * in one primary-key query.
   */
  async #rowsOf(domains: string[], version: number | null): Promise<FeedRowJson[]> {
    if (domains.length === 0) return [];
    const cache = version === null ? null : this.#rowCache;
    const cached = cache ? cache.get(version!, domains) : [];
    const missing = cache ? domains.filter((_, at) => cached[at] === undefined) : domains;
    if (missing.length === 0) return cached as FeedRowJson[];
    const byDomain = new Map((await this.#readRows(missing)).map((row) => [row.domain, feedRowJson(row)]));
    cache?.set(version!, byDomain);
    return domains.flatMap((domain, at) => {
      const row = cached[at] ?? byDomain.get(domain);
      return row ? [row] : [];
    });
  }

  /** The feed rows of these domains, by a query compiled once per count of domains (up to a page). */
  #readRows(domains: string[]): Promise<FeedRowData[]> {
    if (domains.length > MAX_LIMIT) {
      return feedBase(this.db).select(FEED_COLUMNS).where('domain', 'in', domains).execute();
    }
    let read = this.#rowReaders.get(domains.length);
    if (!read) {
      const placeholders = domains.map((_, at) => `\u0000${at}`);
      read = prepareQuery(this.db, placeholders, (...keys: string[]) =>
        feedBase(this.db).select(FEED_COLUMNS).where('domain', 'in', keys),
      );
      this.#rowReaders.set(domains.length, read);
    }
    return read(...domains);
  }

  /**
   * The in-memory index of the current feed version, building it first when there is none
   * (tests and benchmarks await it; requests get null until it is ready).
   */
  async index(): Promise<FeedIndex | null> {
    if (this.options.index === 'off') return null;
    await this.#currentIndex();
    return this.#building ? await this.#building.done : this.#index;
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

  /**
   * The pipeline changed the feed: forget cached totals and the index here, and bump the feed
   * version so other processes drop theirs at their next check.
   */
  async invalidate(): Promise<void> {
    this.#totals?.clear();
    this.#rowCache?.clear();
    this.#retire(this.clock.now());
    // A build under way reads the feed as it was: drop it now rather than at the next version check.
    this.#building?.abort.abort(new SupersededBuild(this.#building.version));
    this.#building = null;
    this.#failed = null;
    this.#checkedAt = Number.NEGATIVE_INFINITY;
    this.#lookedAt = Number.NEGATIVE_INFINITY;
    await this.db
      .updateTable('feed_version')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .execute();
  }

  /** The index when it matches the feed version (checked at most every indexCheckSeconds); else null. */
  async #currentIndex(): Promise<FeedIndex | null> {
    if (this.options.index === 'off') return null;
    const now = this.clock.now();
    if (now - this.#checkedAt >= this.options.indexCheckSeconds * 1_000) {
      this.#checkedAt = now;
      const row = await this.db.selectFrom('feed_version').select('version').where('id', '=', 1).executeTakeFirst();
      const version = Number(row?.version ?? 0);
      // A version move is looked for in the snapshots (and the build lock tried) at once.
      if (version !== this.#knownVersion) this.#lookedAt = Number.NEGATIVE_INFINITY;
      this.#knownVersion = version;
    }
    if (this.#index && this.#index.version === this.#knownVersion) return this.#index;
    this.#retire(now);
    const version = this.#knownVersion ?? 0;
    if (this.#building && this.#building.version !== version) {
      // A newer feed version superseded the build under way: stop its worker, build the new one.
      this.#building.abort.abort(new SupersededBuild(this.#building.version));
      this.#building = null;
    }
    const store = this.options.snapshots;
    if (store && !this.#building) {
      if (!this.#startedFromSnapshot) this.#startFromNewestSnapshot(store, version, now);
      // Looked for (and the build lock tried) at the version-check cadence, not on every request.
      if (now - this.#lookedAt < this.options.indexCheckSeconds * 1_000) return this.#stale(now);
      this.#lookedAt = now;
      // A snapshot of this version (another process of the host built it): mapped, it answers at once.
      const mapped = this.#mapSnapshot(store, version);
      if (mapped) return mapped;
    }
    const failed = this.#failed;
    if (!this.#building && !(failed && failed.version === version && now < failed.retryAt)) {
      // With a snapshot directory one process of the host builds (the lock's holder); the others wait for its file.
      if (!store || this.#tryLock(store, version)) this.#building = this.#build(version, now);
    }
    return this.#stale(now);
  }

  /**
   * At start, the newest snapshot of the host (of an older feed version than the current one)
   * answers as the previous index would after a version move: within FEED_INDEX_STALE_SECONDS,
   * while the current one is mapped or built, so pages do not fall to SQL while the process starts.
   */
  #startFromNewestSnapshot(store: FeedIndexStore, version: number, now: number): void {
    this.#startedFromSnapshot = true;
    if (this.#index || this.#previous) return;
    const newest = store.newestVersion();
    if (newest === null || newest >= version) return; // the current version's own snapshot is mapped next
    try {
      const index = store.map(newest, { cachedFilters: this.#cachedFilters() });
      if (index) this.#previous = { index, outdatedSince: now };
    } catch (error) {
      this.options.onSnapshotError?.(error, newest);
    }
  }

  /** The current version's index from its snapshot, now the current index; null when there is none or it is refused. */
  #mapSnapshot(store: FeedIndexStore, version: number): FeedIndex | null {
    if (this.#refusedSnapshot === version) return null;
    let index: FeedIndex | null;
    try {
      index = store.map(version, { cachedFilters: this.#cachedFilters() });
    } catch (error) {
      // Torn, foreign or of another format: reported once, and built here instead (the new file replaces it).
      this.#refusedSnapshot = version;
      this.options.onSnapshotError?.(error, version);
      return null;
    }
    if (!index) return null;
    this.#totals?.clear();
    this.#index = index;
    this.#previous = null;
    this.#failed = null;
    this.options.onIndexReady?.(version, { mapped: store.fileOf(version) });
    return index;
  }

  /** Takes the host's build lock; false when another process holds it (or the lock cannot be made: reported). */
  #tryLock(store: FeedIndexStore, version: number): boolean {
    try {
      return store.tryLock();
    } catch (error) {
      // The directory is not writable: build here as without a directory, rather than never.
      this.options.onSnapshotError?.(error, version);
      return true;
    }
  }

  /** Reusing a filter's matches is exact within one feed version; FEED_COUNT_CACHE_SECONDS=0 turns reuse off. */
  #cachedFilters(): number {
    return this.options.countCacheSeconds > 0 ? MATCHES_CACHED : 0;
  }

  /**
   * The current index becomes the previous one (kept by #stale while the new one builds). A second
   * version move during a build finds no current index, so the window still counts from the first.
   */
  #retire(now: number): void {
    if (!this.#index) return;
    this.#previous = { index: this.#index, outdatedSince: now };
    this.#index = null;
  }

  /** The previous version's index while it is within FEED_INDEX_STALE_SECONDS of being outdated; else null. */
  #stale(now: number): FeedIndex | null {
    const previous = this.#previous;
    if (previous && now - previous.outdatedSince < (this.options.indexStaleSeconds ?? 0) * 1_000) return previous.index;
    this.#previous = null;
    return null;
  }

  /** FEED_INDEX_MAX_ROWS and FEED_INDEX_MAX_MB as the one row ceiling of the next load (undefined: none). */
  #ceiling(): FeedIndexCeiling | undefined {
    const maxRows = indexRowCeiling(this.options.indexMaxRows ?? 0, this.options.indexMaxMb ?? 0, this.#bytesPerRow);
    return maxRows === null ? undefined : { maxRows, onCut: (since) => this.options.onIndexCeiling?.(since, maxRows) };
  }

  /** Loads and builds the index of one feed version; on success it becomes the current index unless superseded. */
  #build(version: number, now: number): Build {
    const abort = new AbortController();
    const cachedFilters = this.#cachedFilters();
    // The build lock's holder builds straight into the host's snapshot and maps it (one copy per host,
    // the built parts never on this thread); without the lock (no directory, or one it cannot write) in memory.
    const store = this.options.snapshots?.locked ? this.options.snapshots : undefined;
    const build: Build = {
      version,
      abort,
      done: loadFeedIndex(
        this.db,
        version,
        {
          cachedFilters,
          droppedSince: this.options.indexRetentionDays ? now - this.options.indexRetentionDays * DAY_MS : null,
        },
        { signal: abort.signal, entry: this.options.indexWorker },
        this.#ceiling(),
        store && { file: store.fileOf(version), settings: store.snapshotSettings() },
      ).then(
        (index) => {
          if (abort.signal.aborted) return null;
          this.#totals?.clear();
          this.#index = index;
          this.#bytesPerRow = measuredBytesPerRow(index) ?? this.#bytesPerRow;
          this.#previous = null;
          this.#failed = null;
          this.options.onIndexReady?.(version, { built: true });
          try {
            store?.prune(version);
          } catch (error) {
            this.options.onSnapshotError?.(error, version); // older files stay: the next build prunes them
          }
          return index;
        },
        (error: unknown) => {
          if (abort.signal.aborted) return null;
          // One report per failed build; the same version is not retried before RETRY_FAILED_BUILD_MS.
          this.#failed = { version, retryAt: now + RETRY_FAILED_BUILD_MS };
          this.options.onIndexError?.(error, version);
          return null;
        },
      ),
    };
    void build.done.finally(() => {
      if (this.#building === build) this.#building = null;
      // The host's build lock goes with this process's last build (a superseding one keeps it).
      if (this.#building === null) this.options.snapshots?.unlock();
    });
    return build;
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

/** Why a build was stopped: the feed moved on before it finished. */
class SupersededBuild extends Error {
  constructor(built: number) {
    super(`The feed index build of feed version ${built} was superseded by a newer feed version`);
  }
}
