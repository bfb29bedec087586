import type { Dialect } from '@repo/server-kit';
import { type Kysely, sql } from 'kysely';
import { FeedColumnChunks } from '../apps/domain-intel/src/feed/feed-column-chunks.ts';
import { type FeedColumnRow, FeedColumns } from '../apps/domain-intel/src/feed/feed-columns.ts';

export const FEED_BENCH_TLDS = ['com', 'net', 'org', 'info', 'biz', 'xyz', 'online', 'site', 'top', 'store'];
const DAY = 86_400_000;

/**
 * Fills feed_domains with `rows` deterministic rows in one statement generated in the database:
 * 80 % dropped over the last 60 days, 10 TLDs, 80 % with an archive date, 70 % with DA, 60 % with TF.
 */
export async function populateFeed(db: Kysely<unknown>, dialect: Dialect, rows: number, now: number): Promise<void> {
  const pick = (values: string[], expression: string) =>
    `case ${expression} ${values.map((value, i) => `when ${i} then '${value}'`).join(' ')} end`;
  const tld = pick(FEED_BENCH_TLDS, 'n % 10');
  const status = `case when n % 20 < 16 then 'dropped' when n % 20 < 18 then 'pending-delete' when n % 20 = 18 then 'redemption' else 'left-zone' end`;
  const columns = `domain, tld, label, status, status_since, dropped_at, verified_at, first_archived_at, alt_tld_count, alt_tlds,
    da, tf, length, has_hyphen, has_digit, updated_at`;
  const select = `select
      'bench' || n || '.' || ${tld}, ${tld}, 'bench' || n, ${status}, ${now} - (n % 30) * ${DAY},
      case when n % 20 < 16 then ${now} - ((n * 7919) % 86400) * 60000 end,
      ${now} - (n % 24) * 3600000,
      case when (n * 31) % 10 < 8 then ${now} - ((n * 104729) % 9000) * ${DAY} end,
      n % 4, ${pick(['', 'net', 'net,org', 'net,org,info'], 'n % 4')},
      case when (n * 13) % 10 < 7 then (n * 37) % 100 end,
      case when (n * 17) % 10 < 6 then (n * 53) % 80 end,
      length('bench' || n), 0, 1, ${now}`;
  const statement =
    dialect === 'postgres'
      ? `insert into feed_domains (${columns}) ${select} from generate_series(1::bigint, ${rows}::bigint) as n`
      : `insert into feed_domains (${columns}) with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${rows}) ${select} from seq`;
  await sql.raw(statement).execute(db);
  // Statistics (and, on Postgres, the visibility map index-only scans need) as a settled table has them.
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze feed_domains' : 'analyze').execute(db);
}

/**
 * The rows populateFeed writes, built in memory as FeedColumns in the database's domain order
 * (byte order: `bench1.…` < `bench10.…` since '.' sorts before digits), for measuring the
 * in-memory feed index at sizes where writing the table would take the run's whole time.
 */
export function feedBenchColumns(rows: number, now: number): FeedColumns {
  const columns = new FeedColumns(rows, rows * 17);
  let i = 0;
  forEachFeedBenchRow(rows, now, (row) => columns.set(i++, row));
  return columns;
}

/** The same rows in chunks of columns, as FeedIndex.load fills them from the database (FeedColumnChunks). */
export function feedBenchChunks(rows: number, now: number): FeedColumnChunks {
  const chunks = new FeedColumnChunks();
  forEachFeedBenchRow(rows, now, (row) => chunks.append(row));
  return chunks;
}

/** Calls `visit` with each row in order (one object, overwritten: copy what is kept). */
function forEachFeedBenchRow(rows: number, now: number, visit: (row: FeedColumnRow) => void): void {
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
    has_digit: 1,
    expected_drop_at: null,
  };
  const statusOf = (n: number) =>
    n % 20 < 16 ? 'dropped' : n % 20 < 18 ? 'pending-delete' : n % 20 === 18 ? 'redemption' : 'left-zone';
  let i = 0;
  // 1 … rows in lexicographic order of their decimal text (a depth-first walk of the digit tree).
  for (let n = 1; i < rows; ) {
    row.tld = FEED_BENCH_TLDS[n % 10]!;
    row.domain = `bench${n}.${row.tld}`;
    row.status = statusOf(n);
    row.dropped_at = n % 20 < 16 ? now - ((n * 7919) % 86400) * 60000 : null;
    row.first_archived_at = (n * 31) % 10 < 8 ? now - ((n * 104729) % 9000) * DAY : null;
    row.alt_tld_count = n % 4;
    row.da = (n * 13) % 10 < 7 ? (n * 37) % 100 : null;
    row.tf = (n * 17) % 10 < 6 ? (n * 53) % 80 : null;
    row.length = `bench${n}`.length;
    visit(row);
    i++;
    if (n * 10 <= rows) n *= 10;
    else {
      while (n % 10 === 9 || n + 1 > rows) n = Math.floor(n / 10);
      n++;
    }
  }
}
