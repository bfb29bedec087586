import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FEED_SORTS } from '@repo/contracts/domain-intel';
import { type FeedColumnRow, FeedColumns } from '../src/feed-columns.ts';
import { FeedIndex } from '../src/feed-index.ts';
import { rankShift } from '../src/feed-index-parts.ts';
import { parseFeedFilters } from '../src/filters.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const TLDS = ['com', 'net', 'org'];

/** Deterministic rows in domain order, with values spread so sorts have long runs of ties. */
function rows(count: number): FeedColumnRow[] {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  return Array.from({ length: count }, (_, i) => {
    const label = `n${i.toString().padStart(7, '0')}`;
    const tld = TLDS[random(3)]!;
    return {
      domain: `${label}.${tld}`,
      tld,
      status: random(10) === 0 ? 'pending-delete' : 'dropped',
      dropped_at: random(20) === 0 ? null : NOW - random(400) * DAY - random(DAY),
      first_archived_at: random(4) === 0 ? null : NOW - random(9000) * DAY,
      alt_tld_count: random(5) === 0 ? null : random(4),
      da: random(6) === 0 ? null : random(101),
      tf: random(6) === 0 ? null : random(101),
      length: label.length,
      has_hyphen: 0,
      has_digit: 1,
      expected_drop_at: null,
    };
  });
}

describe('FeedIndex pages of narrow filters (coarse ranks)', () => {
  test('with ranks in buckets of several (over 256 rows), the bucket walk gives the pages the full walk gives', () => {
    const size = 150_000;
    assert.ok(rankShift(size) > 0, 'the rows must be enough for buckets of more than one rank');
    const index = FeedIndex.fromColumns(FeedColumns.fromRows(rows(size)), 0);
    const filters = [
      { min_da: '99' },
      { tld: 'org', min_da: '95', min_tf: '50' },
      { status: 'pending-delete', min_alt_tlds: '3' },
      { min_tf: '100', dropped_after: '2026-01-01' },
      { status: 'any', min_da: '90' },
    ];
    let pages = 0;
    for (const raw of filters) {
      const parsed = parseFeedFilters(raw, TLDS);
      for (const sort of FEED_SORTS) {
        for (const offset of [0, 1, 37, 500, 2_000, 1_000_000]) {
          for (const limit of [1, 100]) {
            const page = { sort, limit, offset };
            const byRank = index.page(parsed, page, NOW, 'by-rank');
            assert.deepEqual(byRank, index.page(parsed, page, NOW, 'walk'), JSON.stringify({ raw, page }));
            if (byRank.domains.length > 0) pages++;
          }
        }
      }
    }
    assert.ok(pages > 100, `only ${pages} pages had rows`);
  });

  test('rankShift: the fewest bits that leave every rank in 8 bits', () => {
    assert.deepEqual([0, 1, 256, 257, 512, 513, 65_536, 10_000_000].map(rankShift), [0, 0, 0, 1, 1, 2, 8, 16]);
  });
});

describe('FeedIndex over many TLDs', () => {
  test('keeps the TLD code in one byte up to 256 TLDs and in two beyond, with the same pages', () => {
    for (const tldCount of [256, 257]) {
      const tlds = Array.from({ length: tldCount }, (_, n) => `t${n}`);
      const feed = rows(3 * tldCount).map((row, i) => {
        const label = row.domain.slice(0, row.domain.indexOf('.'));
        const tld = tlds[i % tldCount]!;
        return { ...row, domain: `${label}.${tld}`, tld };
      });
      const index = FeedIndex.fromColumns(FeedColumns.fromRows(feed), 0);
      assert.equal(index.columns.tld.BYTES_PER_ELEMENT, tldCount <= 256 ? 1 : 2, `${tldCount} TLDs`);
      for (const tld of [tlds[0]!, tlds[tldCount - 1]!]) {
        const page = index.page(
          parseFeedFilters({ tld, status: 'any' }, tlds),
          { sort: 'da', limit: 100, offset: 0 },
          NOW,
        );
        const expected = feed.filter((row) => row.tld === tld).map((row) => row.domain);
        assert.deepEqual([...page.domains].sort(), expected.sort(), `${tld} of ${tldCount}`);
        assert.equal(page.total, 3);
      }
    }
  });
});
