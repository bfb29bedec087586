import type { FeedFilters } from '@repo/feed-index';
import {
  bitmapFor,
  compileFeedMatcher,
  FeedClusters,
  type FeedColumnRow,
  FeedColumns,
  feedBounds,
} from '@repo/feed-index';

/**
 * The rows of one matching round as FeedClusters: the feed index's own layout and filter
 * evaluation (feed-matcher.ts feedBounds, one meaning of every filter), so a saved filter means
 * exactly what /v1/domains means. A saved filter reads only the groups of its status and TLDs
 * and, with `min_da`, only the top of each, one column at a time into a bitmap. This is what
 * keeps 10,000 filters against a day of drops in seconds (bench/filter-matching compares it
 * with one plain row-at-a-time scan per filter).
 */
export class RowIndex {
  readonly #columns: FeedColumns;
  readonly #clusters: FeedClusters;
  /** Position k of the clusters is row rowOf[k] of the rows given. */
  readonly #rowOf: Uint32Array;
  readonly #matches: Uint32Array;
  /** Where `match` writes the positions it finds (reused: one filter's matches at a time). */
  readonly #found: Uint32Array;

  constructor(rows: readonly FeedColumnRow[]) {
    this.#columns = FeedColumns.fromRows(rows);
    ({ clusters: this.#clusters, rowOf: this.#rowOf } = FeedClusters.group(this.#columns));
    this.#matches = bitmapFor(rows.length);
    this.#found = new Uint32Array(rows.length);
  }

  /**
   * The positions (into the rows given) of every row the filter matches, in no particular order.
   * The answer is a view of a buffer the next call overwrites: use it before matching again.
   */
  match(filters: FeedFilters, now: number): Uint32Array {
    const { firstWord, endWord } = this.#clusters.mark(feedBounds(filters, now), this.#matches);
    const matches = this.#matches;
    const rowOf = this.#rowOf;
    const found = this.#found;
    let n = 0;
    for (let w = firstWord; w < endWord; w++) {
      for (let bits = matches[w]! | 0; bits !== 0; bits &= bits - 1) {
        found[n++] = rowOf[(w << 5) | (31 - Math.clz32(bits & -bits))]!;
      }
    }
    return found.subarray(0, n);
  }

  /**
   * The filter as a predicate on one position (into the rows given): for checking a few rows
   * (a brand term's hits) without finding every row the filter matches.
   */
  matcher(filters: FeedFilters, now: number): (position: number) => boolean {
    return compileFeedMatcher(this.#columns, filters, now);
  }
}
