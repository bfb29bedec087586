/**
 * Brand alerts: 500 saved filters with a brand term (`status=new&tld=com` + brand) against a
 * `.com` day of new registrations, the time to compute every filter's batch (the service's own
 * delivery/match-round.ts: one BrandIndex of the terms, each label decoded, skeletonised and
 * looked up once, then each term's hits against its filter's RowIndex matches), against the plain
 * filter match of the same rows in the same run (the same 500 filters without their terms:
 * every new .com row goes to each). A second row (INFO) puts the brand round against one minute
 * for scale: the daily window has hours.
 *
 * Rows: BENCH_BRAND_ROWS (default 120,000; a .com day of new registrations is 100-150 k) labels
 * shaped like .com names (bench/domains-feed-labels.ts: English word compounds, hyphens, digits,
 * a few IDNs), 1 % of them replaced by lookalikes of the terms (a typo, a homoglyph, a hyphen, a
 * digit, the term inside a longer label), so hits are many more than in a real day. Terms: 500
 * distinct one- and two-word labels of 4-14 letters from another seed.
 */

import { parseFeedFilters } from '@repo/feed-index';
import { seededRandom } from '@repo/upstream-sim';
import type { RoundFilter, RoundRow } from '../apps/domain-intel/src/delivery/match-round.ts';
import { labelFacts } from '../apps/domain-intel/src/lifecycle/label-facts.ts';
import { BenchLabels } from './domains-feed-labels.ts';
import { report } from './lib/harness.ts';
import { countedRound, timed } from './lib/match-rounds.ts';

const ROWS = Number(process.env.BENCH_BRAND_ROWS ?? 120_000);
const FILTERS = 500;
const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const MARGIN_MS = 3_600_000;

function brandTerms(count: number): string[] {
  const labels = new BenchLabels(7);
  const terms = new Set<string>();
  while (terms.size < count) {
    const label = labels.next();
    if (/^[a-z]{4,14}$/.test(label)) terms.add(label);
  }
  return [...terms];
}

/** A lookalike of the term, one of the kinds a squatter registers. */
function lookalike(term: string, next: () => number): string {
  const at = 1 + Math.floor(next() * (term.length - 2));
  switch (Math.floor(next() * 6)) {
    case 0:
      return `${term.slice(0, at)}${term[at + 1]}${term[at]}${term.slice(at + 2)}`; // transposition
    case 1:
      return term.replace('o', '0').replace('l', '1').replace('a', '\u0430'); // homoglyph (a Cyrillic а)
    case 2:
      return `${term.slice(0, at)}-${term.slice(at)}`; // hyphen
    case 3:
      return `${term}${Math.floor(next() * 100)}`; // digits
    case 4:
      return `${term.slice(0, at)}${term.slice(at + 1)}`; // one edit
    default:
      return `${term}-login`; // contains
  }
}

function newRegistrations(count: number, terms: readonly string[]): RoundRow[] {
  const labels = new BenchLabels();
  const next = seededRandom(13);
  const seen = new Set<string>();
  const rows: RoundRow[] = [];
  while (rows.length < count) {
    const raw = next() < 0.01 ? lookalike(terms[Math.floor(next() * terms.length)]!, next) : labels.next();
    const domain = new URL(`http://${raw}.com`).hostname; // IDN lookalikes as registries hold them (xn--)
    if (seen.has(domain)) continue;
    seen.add(domain);
    const facts = labelFacts(domain);
    const at = NOW - Math.floor(next() * DAY);
    rows.push({
      domain,
      tld: facts.tld,
      status: 'new',
      dropped_at: null,
      first_archived_at: null,
      alt_tld_count: null,
      alt_tlds: null,
      da: null,
      tf: null,
      length: facts.length,
      has_hyphen: facts.has_hyphen,
      has_digit: facts.has_digit,
      verified_at: null,
      expected_drop_at: null,
      expected_drop_earliest: null,
      expected_drop_latest: null,
      zone_date: '2026-03-10',
      left_zone_at: null,
      status_since: at,
      updated_at: at,
    });
  }
  return rows;
}

const round = (rows: readonly RoundRow[], filters: readonly RoundFilter[]) =>
  countedRound(rows, filters, NOW, MARGIN_MS);

const terms = brandTerms(FILTERS);
const rows = newRegistrations(ROWS, terms);
const filters = parseFeedFilters({ status: 'new', tld: 'com' }, ['com']);
const brandFilters: RoundFilter[] = terms.map((brand, i) => ({
  id: `flt_${i}`,
  filters,
  matchedThrough: NOW - DAY,
  brand,
}));
const plainFilters = brandFilters.map(({ brand: _brand, ...filter }) => filter);

// Warm-up on a slice, so both sides run compiled code.
round(rows.slice(0, 5_000), brandFilters.slice(0, 50));
round(rows.slice(0, 5_000), plainFilters.slice(0, 50));
const brand = timed(() => round(rows, brandFilters));
const plain = timed(() => round(rows, plainFilters));
const details = {
  filters: FILTERS,
  rows: ROWS,
  brand_s: brand.seconds,
  plain_s: plain.seconds,
  brand_batches: brand.result.batches,
  brand_rows: brand.result.rows,
  plain_rows: plain.result.rows,
};
// The brand round against the plain match of the same rows and filters (lower is better).
report({ name: 'brand-matching-500xcom-day', ratio: brand.seconds / plain.seconds, target: '< 1', details });
// For scale only (the daily window has hours): the brand round against one minute.
report({ name: 'brand-matching-minute', ratio: brand.seconds / 60, target: undefined, details });
console.log(`brand ${brand.seconds.toFixed(2)} s (${brand.result.rows} rows), plain ${plain.seconds.toFixed(2)} s`);
