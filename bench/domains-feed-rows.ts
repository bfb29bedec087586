import { FeedColumnChunks, type FeedColumnRow, FeedColumns } from '@repo/feed-index';
import { sortedBy } from '@repo/feed-index/radix-sort.ts';
import type { Dialect } from '@repo/server-kit';
import { type Kysely, sql } from 'kysely';
import { BenchLabels } from './domains-feed-labels.ts';

export const FEED_BENCH_TLDS = ['com', 'net', 'org', 'info', 'biz', 'xyz', 'online', 'site', 'top', 'store'];
const DAY = 86_400_000;
/** Rows per insert of the labels (two parameters a row: far under SQLite's 32,766). */
const LABEL_BATCH = 5_000;

/**
 * The label of each row n = 1 … rows (at n - 1): realistic labels (domains-feed-labels.ts), made
 * unique per domain (row n's TLD is FEED_BENCH_TLDS[n % 10]), as a registry holds each name once,
 * and the rows (n - 1) in the database's domain order (byte order).
 * Kept for the last `rows` asked (a benchmark's phases ask for the same rows).
 */
let labelsMade: { rows: number; labels: string[]; order: Uint32Array } | undefined;
export function feedBenchLabels(rows: number): { labels: string[]; order: Uint32Array } {
  if (labelsMade?.rows === rows) return labelsMade;
  labelsMade = undefined;
  const generator = new BenchLabels();
  const labels = Array.from({ length: rows }, () => generator.next());
  for (let round = 0; ; round++) {
    const { order, repeats } = domainOrder(labels);
    if (repeats.length === 0) {
      labelsMade = { rows, labels, order };
      return labelsMade;
    }
    // A repeat takes its number (`love2`), as registrants do; the few of those that exist already
    // take `-` and the row number, which no generated label ends with, so the next round is the last.
    for (const [k, repeat] of repeats) labels[k] = round === 0 ? `${labels[k]}${repeat}` : `${labels[k]}-${k + 1}`;
  }
}

/**
 * Drops the cached labels (millions of strings): a benchmark that measures the API thread's pauses
 * releases them first, or every collection on that thread would mark them, which production's
 * thread (typed arrays, no strings) never does.
 */
export function releaseFeedBenchLabels(): void {
  labelsMade = undefined;
}

const domainOf = (labels: string[], k: number) => `${labels[k]}.${FEED_BENCH_TLDS[(k + 1) % 10]}`;

/**
 * Row indexes (n - 1) in byte order of their domains, and the repeats found: index and how many
 * equal domains came before it. A radix sort on each domain's first 6 bytes, then a comparison
 * sort within each run of equal prefixes (millions of strings sorted as strings took minutes).
 */
function domainOrder(labels: string[]): { order: Uint32Array; repeats: Array<[number, number]> } {
  const rows = labels.length;
  const starts = new Uint32Array(rows + 1);
  let text = Buffer.allocUnsafe(rows * 24);
  for (let k = 0; k < rows; k++) {
    const domain = domainOf(labels, k);
    if (starts[k]! + domain.length > text.length) text = Buffer.concat([text, Buffer.alloc(text.length)]);
    starts[k + 1] = starts[k]! + text.write(domain, starts[k]!, 'latin1');
  }
  const PREFIX = 6;
  const keys = new Float64Array(rows);
  for (let k = 0; k < rows; k++) {
    let key = 0;
    // A shorter domain pads with 0, below every domain byte: it sorts before the longer ones it prefixes.
    for (let b = 0; b < PREFIX; b++) key = key * 256 + (starts[k]! + b < starts[k + 1]! ? text[starts[k]! + b]! : 0);
    keys[k] = key;
  }
  const order = sortedBy(keys);
  /** Byte order of two domains past their common prefix key (a loop: a Buffer view per call cost more than the compare). */
  const compare = (a: number, b: number) => {
    const aEnd = starts[a + 1]!;
    const bEnd = starts[b + 1]!;
    for (let i = starts[a]! + PREFIX, j = starts[b]! + PREFIX; ; i++, j++) {
      if (i >= aEnd || j >= bEnd) return aEnd - i - (bEnd - j);
      if (text[i] !== text[j]) return text[i]! - text[j]!;
    }
  };
  for (let from = 0; from < rows; ) {
    let to = from + 1;
    while (to < rows && keys[order[to]!] === keys[order[from]!]) to++;
    if (to - from > 1) order.set(Array.from(order.subarray(from, to)).sort(compare), from);
    from = to;
  }
  const repeats: Array<[number, number]> = [];
  for (let i = 1, run = 1; i < rows; i++) {
    run = compare(order[i - 1]!, order[i]!) === 0 ? run + 1 : 1;
    if (run > 1) repeats.push([order[i]!, run]);
  }
  return { order, repeats };
}

/**
 * Fills feed_domains with `rows` deterministic rows: the labels from feedBenchLabels (written to
 * a scratch table in batches), every other column generated in the database from the row number:
 * 80 % dropped over the last 60 days, 10 TLDs, 80 % with an archive date, 70 % with DA, 60 % with TF.
 */
export async function populateFeed(db: Kysely<unknown>, dialect: Dialect, rows: number, now: number): Promise<void> {
  const { labels } = feedBenchLabels(rows);
  await sql.raw('create table bench_labels (n bigint primary key, label text not null)').execute(db);
  for (let from = 0; from < rows; from += LABEL_BATCH) {
    const batch = labels.slice(from, from + LABEL_BATCH).map((label, k) => ({ n: from + k + 1, label }));
    await (db as Kysely<{ bench_labels: { n: number; label: string } }>)
      .insertInto('bench_labels')
      .values(batch)
      .execute();
  }
  const pick = (values: string[], expression: string) =>
    `case ${expression} ${values.map((value, i) => `when ${i} then '${value}'`).join(' ')} end`;
  const tld = pick(FEED_BENCH_TLDS, 'n % 10');
  const status = `case when n % 20 < 16 then 'dropped' when n % 20 < 18 then 'pending-delete' when n % 20 = 18 then 'redemption' else 'left-zone' end`;
  const hasDigit = dialect === 'postgres' ? `(label ~ '[0-9]')::int` : `(label glob '*[0-9]*')`;
  const columns = `domain, tld, label, status, status_since, dropped_at, verified_at, first_archived_at, alt_tld_count, alt_tlds,
    da, tf, length, has_hyphen, has_digit, updated_at`;
  const select = `select
      label || '.' || ${tld}, ${tld}, label, ${status}, ${now} - (n % 30) * ${DAY},
      case when n % 20 < 16 then ${now} - ((n * 7919) % 86400) * 60000 end,
      ${now} - (n % 24) * 3600000,
      case when (n * 31) % 10 < 8 then ${now} - ((n * 104729) % 9000) * ${DAY} end,
      n % 4, ${pick(['', 'net', 'net,org', 'net,org,info'], 'n % 4')},
      case when (n * 13) % 10 < 7 then (n * 37) % 100 end,
      case when (n * 17) % 10 < 6 then (n * 53) % 80 end,
      length(label), case when label like '%-%' then 1 else 0 end, ${hasDigit}, ${now}`;
  // As a bulk load is done: the secondary indexes dropped, the rows written in primary-key order,
  // the indexes built again from their own definitions (one sort each). Inserted into the ten
  // covering indexes row by row in random order, 10 M rows took over half an hour and a 5 GB WAL.
  const indexes = await secondaryIndexes(db, dialect);
  for (const { name } of indexes) await sql`drop index ${sql.id(name)}`.execute(db);
  await sql.raw(`insert into feed_domains (${columns}) ${select} from bench_labels order by 1`).execute(db);
  for (const { definition } of indexes) await sql.raw(definition).execute(db);
  await sql.raw('drop table bench_labels').execute(db);
  // Statistics (and, on Postgres, the visibility map index-only scans need) as a settled table has them.
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze feed_domains' : 'analyze').execute(db);
}

/** feed_domains' indexes other than its primary key's, each with the statement that creates it. */
async function secondaryIndexes(
  db: Kysely<unknown>,
  dialect: Dialect,
): Promise<Array<{ name: string; definition: string }>> {
  const query =
    dialect === 'postgres'
      ? sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition from pg_indexes
          where schemaname = current_schema() and tablename = 'feed_domains' and indexname <> 'feed_domains_pkey'`
      : // An index SQLite made itself (the primary key's) has no statement.
        sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master
          where type = 'index' and tbl_name = 'feed_domains' and sql is not null`;
  const { rows } = await query.execute(db);
  if (rows.length === 0) throw new Error('feed_domains has no secondary index: the migrations did not run');
  return rows;
}

/**
 * The rows populateFeed writes, built in memory as FeedColumns in the database's domain order
 * (byte order), for measuring the in-memory feed index at sizes where writing the table would
 * take the run's whole time.
 */
export function feedBenchColumns(rows: number, now: number): FeedColumns {
  const columns = new FeedColumns(rows, rows * 20);
  let i = 0;
  forEachFeedBenchRow(rows, now, (row) => columns.set(i++, row));
  return columns;
}

/** The same rows in chunks of columns, as the app's loadFeedIndex fills them from the database (FeedColumnChunks). */
export function feedBenchChunks(rows: number, now: number): FeedColumnChunks {
  const chunks = new FeedColumnChunks();
  forEachFeedBenchRow(rows, now, (row) => chunks.append(row));
  return chunks;
}

/** Calls `visit` with each row in order (one object, overwritten: copy what is kept). */
function forEachFeedBenchRow(rows: number, now: number, visit: (row: FeedColumnRow) => void): void {
  const { labels, order } = feedBenchLabels(rows);
  const row: FeedColumnRow = {
    domain: '',
    tld: '',
    status: '',
    dropped_at: null,
    first_archived_at: null,
    alt_tld_count: null,
    da: null,
    tf: null,
    length: 0,
    has_hyphen: 0,
    has_digit: 0,
    expected_drop_at: null,
  };
  const statusOf = (n: number) =>
    n % 20 < 16 ? 'dropped' : n % 20 < 18 ? 'pending-delete' : n % 20 === 18 ? 'redemption' : 'left-zone';
  for (let i = 0; i < rows; i++) {
    const n = order[i]! + 1;
    const label = labels[n - 1]!;
    row.tld = FEED_BENCH_TLDS[n % 10]!;
    row.domain = `${label}.${row.tld}`;
    row.status = statusOf(n);
    row.dropped_at = n % 20 < 16 ? now - ((n * 7919) % 86400) * 60000 : null;
    row.first_archived_at = (n * 31) % 10 < 8 ? now - ((n * 104729) % 9000) * DAY : null;
    row.alt_tld_count = n % 4;
    row.da = (n * 13) % 10 < 7 ? (n * 37) % 100 : null;
    row.tf = (n * 17) % 10 < 6 ? (n * 53) % 80 : null;
    row.length = label.length;
    row.has_hyphen = label.includes('-') ? 1 : 0;
    row.has_digit = /[0-9]/.test(label) ? 1 : 0;
    visit(row);
  }
}
