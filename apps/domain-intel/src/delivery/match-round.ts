import type { FeedFilters } from '@repo/feed-index';
import type { Selectable } from 'kysely';
import { type BrandHit, brandHits } from '../brand/brand-round.ts';
import type { FeedDomainTable } from '../db/schema.ts';
import { FEED_COLUMNS, type FeedRowData, toFeedRecord } from '../feed/feed-row.ts';
import type { MatchedRow } from './outbox.ts';
import { RowIndex } from './row-index.ts';

/** The columns a matching round reads of each feed row it looks at. */
export const ROUND_COLUMNS = [...FEED_COLUMNS, 'left_zone_at', 'status_since', 'updated_at'] as const;
export type RoundRow = FeedRowData & Pick<Selectable<FeedDomainTable>, 'left_zone_at' | 'status_since' | 'updated_at'>;

/** What a round needs of a saved filter. */
export interface RoundFilter {
  id: string;
  filters: FeedFilters;
  /** Rows updated before this (less the margin) were matched in an earlier round. */
  matchedThrough: number;
  /** A brand term (brand/brand-term.ts): only rows whose label resembles it, each saying why. */
  brand?: string | null;
}

/**
 * The rows of one round in delivery order (oldest status change first, then by domain), each
 * turned into the record a batch sends once, however many filters it goes to (a round holds
 * the rows changed since the oldest watermark: a day of drops is 100,000 records).
 */
export class RoundRows {
  readonly ordered: readonly RoundRow[];
  /** The oldest `updated_at` of the round: a filter whose watermark is older takes every row it matches. */
  readonly oldestUpdate: number;
  /** Each row as a batch carries it, made once (the records are shared by every batch that has the row). */
  readonly #matched: MatchedRow[];
  /** Scratch marks for putting many positions in order without sorting them. */
  readonly #marks: Uint8Array;

  constructor(rows: readonly RoundRow[], now: number) {
    this.ordered = [...rows].sort(
      (x, y) => x.status_since - y.status_since || (x.domain < y.domain ? -1 : x.domain > y.domain ? 1 : 0),
    );
    this.oldestUpdate = rows.reduce((oldest, row) => Math.min(oldest, row.updated_at), Number.POSITIVE_INFINITY);
    this.#matched = this.ordered.map((row) => ({
      domain: row.domain,
      episode: row.left_zone_at ?? row.status_since,
      record: toFeedRecord(row, now),
    }));
    this.#marks = new Uint8Array(rows.length);
  }

  /**
   * A brand filter's batch: those of its brand hits (in delivery order) that its other filters
   * match and that were updated since `from`, each record carrying why it matched.
   */
  brandBatch(hits: readonly BrandHit[], matches: (position: number) => boolean, from: number): MatchedRow[] {
    const batch: MatchedRow[] = [];
    for (const { position, match } of hits) {
      if (!matches(position) || this.ordered[position]!.updated_at < from) continue;
      const row = this.#matched[position]!;
      batch.push({ ...row, record: { ...row.record, match } });
    }
    return batch;
  }

  /**
   * The batch of these positions (into `ordered`), in delivery order: a few are sorted; many
   * (a broad filter) are marked and read back in one sweep, which costs less than sorting them.
   */
  batch(positions: Uint32Array): MatchedRow[] {
    const count = positions.length;
    const matched = this.#matched;
    const batch: MatchedRow[] = new Array(count);
    if (count * 32 < this.ordered.length) {
      positions.sort();
      for (let k = 0; k < count; k++) batch[k] = matched[positions[k]!]!;
      return batch;
    }
    const marks = this.#marks;
    let first = marks.length;
    let last = -1;
    for (let k = 0; k < count; k++) {
      const i = positions[k]!;
      marks[i] = 1;
      if (i < first) first = i;
      if (i > last) last = i;
    }
    let n = 0;
    for (let i = first; i <= last; i++) {
      if (marks[i] === 0) continue;
      marks[i] = 0;
      batch[n++] = matched[i]!;
    }
    return batch;
  }
}

function* brandTerms(filters: readonly RoundFilter[]): Generator<string> {
  for (const filter of filters) if (filter.brand) yield filter.brand;
}

/**
 * Every filter's candidate batch of one round: the rows it matches among `rows` that were
 * updated since its watermark (less `marginMs`), oldest status change first, as the records the
 * batch sends. All filters are matched against one RowIndex of the rows, one filter at a time
 * (the caller records each batch before the next is made, so memory holds one filter's matches
 * beside the day's records); filters with no match are skipped. The outbox then drops what a
 * filter has had already. A brand filter takes, of the rows its other filters match, those whose
 * label resembles its term (brand/: every term's hits found in one pass over the rows).
 */
export function* matchRound(
  rows: readonly RoundRow[],
  filters: readonly RoundFilter[],
  now: number,
  marginMs: number,
): Generator<[filterId: string, matched: MatchedRow[]]> {
  const round = new RoundRows(rows, now);
  const index = new RowIndex(round.ordered);
  const brands = brandHits(round.ordered, brandTerms(filters));
  for (const filter of filters) {
    const from = filter.matchedThrough - marginMs;
    if (filter.brand) {
      const hits = brands.get(filter.brand);
      if (!hits) continue; // nothing resembles the term: its other filters need not run
      // Only the term's few hits are checked against the filter, never every row it matches.
      const batch = round.brandBatch(hits, index.matcher(filter.filters, now), from);
      if (batch.length > 0) yield [filter.id, batch];
      continue;
    }
    const matched = index.match(filter.filters, now);
    const positions =
      from <= round.oldestUpdate ? matched : matched.filter((i) => round.ordered[i]!.updated_at >= from);
    if (positions.length > 0) yield [filter.id, round.batch(positions)];
  }
}
