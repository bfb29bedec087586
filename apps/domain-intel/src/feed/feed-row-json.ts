import { ageYears, type FeedRowData, toFeedRecord } from './feed-row.ts';

/**
 * A feed record's JSON as /v1/domains sends it, cut around `age_years`, the one field that moves
 * with the clock: the rest is written once per row (and kept in the row cache), the age per answer.
 * The response schema's serializer (fast-json-stringify) picks each nullable field's branch with a
 * schema validator, ~10 µs a row; this writes the same text (same fields, order and escaping, see
 * test/feed-row-json.test.ts) with plain JSON.stringify.
 */
export interface FeedRowJson {
  /** `{"domain":…,"first_archived":…,"age_years":` */
  head: string;
  firstArchivedAt: number | null;
  /** `,"alt_tld_count":…}` */
  tail: string;
}

export function feedRowJson(row: FeedRowData): FeedRowJson {
  const head: string[] = [];
  const tail: string[] = [];
  // The record's own fields in its own order, so this cannot drift from toFeedRecord.
  let part = head;
  for (const [key, value] of Object.entries(toFeedRecord(row, 0))) {
    if (key === 'age_years') part = tail;
    else part.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
  }
  // Joined, not appended piece by piece: a flat string, not a rope of ~30 pieces (a kept row is ~0.5 KB, not 2 KB).
  return {
    head: `{${head.join(',')},"age_years":`,
    firstArchivedAt: row.first_archived_at,
    tail: `,${tail.join(',')}}`,
  };
}

/** The record's JSON at `now`. */
export function recordJson(json: FeedRowJson, now: number): string {
  const age = ageYears(json.firstArchivedAt, now);
  return json.head + (age === null ? 'null' : String(age)) + json.tail;
}

export interface FeedPageMeta {
  request_id: string;
  total: number;
  limit: number;
  offset: number;
  sort: string;
}

/** The /v1/domains envelope `{"data":[…],"meta":{…}}` around records already written as JSON. */
export function feedPageJson(records: readonly string[], meta: FeedPageMeta): string {
  return `{"data":[${records.join(',')}],"meta":${JSON.stringify(meta)}}`;
}
