import { LRUCache } from 'lru-cache';
import type { FeedRowJson } from './feed-row-json.ts';

/**
 * The most recently served feed rows (as JSON, feed-row-json.ts), by domain, for one feed
 * version: the feed changes only when the pipeline runs (which bumps the version), so within a
 * version a page's rows need not be read again. Every row belongs to the version that was current when its read began; a
 * version change empties the cache, and rows read under an older version are not kept.
 * Bounded by a row count (least recently used rows leave first).
 */
export class FeedRowCache {
  readonly #rows: LRUCache<string, FeedRowJson>;
  #version: number | null = null;

  constructor(maxRows: number) {
    this.#rows = new LRUCache({ max: maxRows });
  }

  /**
   * The cached rows of `domains` (undefined where not cached) for this version; a different
   * version than the cache holds empties it first.
   */
  get(version: number, domains: readonly string[]): Array<FeedRowJson | undefined> {
    if (version !== this.#version) {
      this.#rows.clear();
      this.#version = version;
    }
    return domains.map((domain) => this.#rows.get(domain));
  }

  /** Keeps rows whose read began under `version`, unless the cache has moved on since. */
  set(version: number, rows: ReadonlyMap<string, FeedRowJson>): void {
    if (version !== this.#version) return;
    for (const [domain, row] of rows) this.#rows.set(domain, row);
  }

  /** Forget every row (the feed changed); nothing is kept until the next version is asked for. */
  clear(): void {
    this.#rows.clear();
    this.#version = null;
  }

  get size(): number {
    return this.#rows.size;
  }
}
