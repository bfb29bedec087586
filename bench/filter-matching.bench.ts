/**
 * Saved-filter matching: 10,000 saved filters against a day of 100,000 new drops, the time to
 * compute every filter's batch (match, order, build the records it sends), with the service's
 * own code (delivery/match-round.ts: one RowIndex of the day's rows, buckets by status and TLD
 * sorted by DA) against a plain scan baseline in the same run (each filter's compiled matcher
 * over every row). Both give the same batches; the run checks that.
 *
 * Sizes: BENCH_FILTER_SIZES (filters, default 1000,10000) × BENCH_FILTER_ROWS (rows, default
 * 25000,100000), so the figures say how it grows. Rows and filters are synthetic but shaped like
 * the feed (most drops with little or unknown authority) and like investors' filters (TLDs,
 * DA/TF/age/length floors, no hyphens or digits, text; 5 % broad).
 */
import { FEED_STATUSES } from '@repo/contracts/domain-intel';
import { compileFeedMatcher, FeedColumns, parseFeedFilters } from '@repo/feed-index';
import { seededRandom } from '@repo/upstream-sim';
import { type RoundFilter, type RoundRow, RoundRows } from '../apps/domain-intel/src/delivery/match-round.ts';
import { labelFacts } from '../apps/domain-intel/src/lifecycle/label-facts.ts';
import { report } from './lib/harness.ts';
import { countedRound, timed } from './lib/match-rounds.ts';

const filterSizes = (process.env.BENCH_FILTER_SIZES ?? '1000,10000').split(',').map(Number);
const rowSizes = (process.env.BENCH_FILTER_ROWS ?? '25000,100000').split(',').map(Number);
const TLDS = ['com', 'net', 'org', 'info', 'biz', 'io', 'co', 'xyz', 'online', 'site'];
/** Share of the day's drops per TLD (com dominates, as it does). */
const TLD_WEIGHTS = [0.55, 0.08, 0.08, 0.05, 0.03, 0.05, 0.04, 0.06, 0.03, 0.03];
const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const YEAR = 365.2425 * DAY;
/** A day's run matches rows changed since the filter's watermark: all of today's rows here. */
const MARGIN_MS = 3_600_000;

const LETTERS = 'etaoinshrdlcumwfgypbvkjxqz';

function pickTld(next: () => number): string {
  let roll = next();
  for (let i = 0; i < TLDS.length; i++) {
    roll -= TLD_WEIGHTS[i]!;
    if (roll <= 0) return TLDS[i]!;
  }
  return TLDS[0]!;
}

function syntheticRows(count: number): RoundRow[] {
  const next = seededRandom(7);
  const seen = new Set<string>();
  const rows: RoundRow[] = [];
  while (rows.length < count) {
    const length = 3 + Math.floor(next() * next() * 18);
    let label = '';
    for (let i = 0; i < length; i++) {
      const roll = next();
      if (roll < 0.05 && i > 0 && i < length - 1 && !label.endsWith('-')) label += '-';
      else if (roll < 0.12) label += String(Math.floor(next() * 10));
      else label += LETTERS[Math.floor(next() * next() * LETTERS.length)];
    }
    const domain = `${label}.${pickTld(next)}`;
    if (seen.has(domain)) continue;
    seen.add(domain);
    const facts = labelFacts(domain);
    // Most drops have little authority; unknown metrics are common.
    const da = next() < 0.35 ? null : Math.min(100, Math.floor(-Math.log(1 - next()) * 12));
    const tf = next() < 0.45 ? null : Math.min(100, Math.floor(-Math.log(1 - next()) * 8));
    const altCount = next() < 0.3 ? null : Math.floor(-Math.log(1 - next()) * 1.5);
    const archived = next() < 0.4 ? null : NOW - Math.floor(next() * 20 * YEAR);
    const droppedAt = NOW - Math.floor(next() * DAY);
    rows.push({
      domain,
      tld: facts.tld,
      status: next() < 0.9 ? 'dropped' : 'pending-delete',
      dropped_at: droppedAt,
      first_archived_at: archived,
      alt_tld_count: altCount,
      alt_tlds: null,
      da,
      tf,
      length: facts.length,
      has_hyphen: facts.has_hyphen,
      has_digit: facts.has_digit,
      verified_at: droppedAt,
      expected_drop_at: null,
      zone_date: null,
      expected_drop_earliest: null,
      expected_drop_latest: null,
      left_zone_at: droppedAt - 35 * DAY,
      status_since: droppedAt,
      updated_at: droppedAt,
    });
  }
  return rows;
}

/**
 * Filters the way investors write them: a shortlist, so nearly every one has a quality floor
 * (DA, TF, archive age or a short label) and most a TLD or two; 5 % are broad (a TLD, or
 * everything), the heavy end of what a filter can ask for.
 */
function syntheticFilters(count: number): RoundFilter[] {
  const next = seededRandom(11);
  const filters: RoundFilter[] = [];
  for (let i = 0; i < count; i++) {
    const query: Record<string, string> = {};
    const broad = next() < 0.05;
    if (next() < 0.85) {
      const tlds = new Set<string>();
      const wanted = 1 + Math.floor(next() * next() * 3);
      while (tlds.size < wanted) tlds.add(pickTld(next));
      query.tld = [...tlds].join(',');
    }
    if (!broad) {
      const floors = [
        () => (query.min_da = String(5 + Math.floor(next() * 40))),
        () => (query.min_tf = String(1 + Math.floor(next() * 25))),
        () => (query.min_years = String(1 + Math.floor(next() * 10))),
        () => (query.max_length = String(4 + Math.floor(next() * 6))),
      ];
      // One floor always (DA most often), others sometimes.
      (next() < 0.6 ? floors[0]! : floors[1 + Math.floor(next() * 3)]!)();
      for (const floor of floors) if (next() < 0.2) floor();
      if (next() < 0.3) query.hyphens = 'false';
      if (next() < 0.3) query.digits = 'false';
      if (next() < 0.08) {
        const start = Math.floor(next() * 8);
        query.contains = LETTERS.slice(start, start + 2 + Math.floor(next() * 2));
      }
      if (next() < 0.1) query.min_alt_tlds = String(1 + Math.floor(next() * 3));
      if (next() < 0.05) query.status = FEED_STATUSES[Math.floor(next() * FEED_STATUSES.length)]!;
    }
    filters.push({ id: `flt_${i}`, filters: parseFeedFilters(query, TLDS), matchedThrough: NOW - DAY });
  }
  return filters;
}

/**
 * The baseline: each filter's compiled matcher over every row of the day, then the same batch
 * building (the rows in delivery order, each row's record made once).
 */
function plainScan(rows: readonly RoundRow[], filters: readonly RoundFilter[]): { batches: number; rows: number } {
  const round = new RoundRows(rows, NOW);
  const columns = FeedColumns.fromRows(round.ordered);
  const found = new Uint32Array(columns.size);
  let batches = 0;
  let matchedRows = 0;
  for (const filter of filters) {
    const matches = compileFeedMatcher(columns, filter.filters, NOW);
    const from = filter.matchedThrough - MARGIN_MS;
    let n = 0;
    for (let i = 0; i < columns.size; i++) if (matches(i) && round.ordered[i]!.updated_at >= from) found[n++] = i;
    if (n === 0) continue;
    batches += 1;
    matchedRows += round.batch(found.subarray(0, n)).length;
  }
  return { batches, rows: matchedRows };
}

const indexed = (rows: readonly RoundRow[], filters: readonly RoundFilter[]) =>
  countedRound(rows, filters, NOW, MARGIN_MS);

const figures: string[] = [];
for (const rowCount of rowSizes) {
  const rows = syntheticRows(rowCount);
  for (const filterCount of filterSizes) {
    const filters = syntheticFilters(filterCount);
    // Warm-up on a slice, so both sides run compiled code.
    indexed(rows, filters.slice(0, 200));
    plainScan(rows, filters.slice(0, 200));
    const candidate = timed(() => indexed(rows, filters));
    const baseline = timed(() => plainScan(rows, filters));
    if (candidate.result.rows !== baseline.result.rows || candidate.result.batches !== baseline.result.batches) {
      throw new Error(
        `the two ways disagree: ${JSON.stringify({ candidate: candidate.result, baseline: baseline.result })}`,
      );
    }
    const label = `${filterCount}x${rowCount}`;
    figures.push(`${label}: index ${candidate.seconds.toFixed(2)} s, scan ${baseline.seconds.toFixed(2)} s`);
    const details = {
      filters: filterCount,
      rows: rowCount,
      index_s: candidate.seconds,
      scan_s: baseline.seconds,
      batches: candidate.result.batches,
      matched_rows: candidate.result.rows,
    };
    // The index against the plain scan of the same run (lower is better).
    report({ name: `filter-matching-${label}`, ratio: candidate.seconds / baseline.seconds, target: '< 1', details });
    if (filterCount === 10_000 && rowCount === 100_000) {
      // The target: every batch of 10,000 filters over a day of 100,000 drops well under a minute.
      report({ name: 'filter-matching-minute', ratio: candidate.seconds / 60, target: '< 0.25', details });
    }
  }
}
console.log(figures.join('\n'));
