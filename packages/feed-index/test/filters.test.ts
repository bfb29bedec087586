import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FEED_FILTER_PARAMETERS, FEED_FILTER_WIRE } from '@repo/contracts/domain-intel';
import { type FeedColumnRow, FeedColumns } from '../src/feed-columns.ts';
import { compileFeedMatcher } from '../src/feed-matcher.ts';
import { FEED_FILTERS, FeedFilterError, feedBounds, feedSqlPredicates, parseFeedFilters } from '../src/filters.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const TLDS = ['com', 'net', 'org'];

describe('feed filter definitions (one entry each: parameter, parse, SQL, index)', () => {
  // The compiler checks this too (EVERY_WIRE_FILTER_DEFINED); here a second definition of one parameter fails.
  test('every filter parameter of the wire contract has its definition, and no definition is off the contract', () => {
    const defined = Object.values(FEED_FILTERS).map((definition) => definition.parameter);
    assert.deepEqual([...defined].sort(), [...FEED_FILTER_PARAMETERS].sort());
  });

  test('an absent filter adds nothing to the SQL or the index', () => {
    const filters = parseFeedFilters({}, TLDS);
    assert.deepEqual(feedSqlPredicates(filters, NOW), [{ column: 'status', op: '=', value: 'dropped' }]);
    const bounds = feedBounds(filters, NOW);
    assert.deepEqual([bounds.tlds, bounds.bounds, bounds.contains, bounds.rowTests], [null, [], null, []]);
  });

  test('two filters on one column (after and before) are one bound in the index, two predicates in SQL', () => {
    const filters = parseFeedFilters({ dropped_after: '2026-03-01', dropped_before: '2026-03-05' }, TLDS);
    const march = (day: number) => Date.parse(`2026-03-0${day}T00:00:00Z`);
    assert.deepEqual(feedBounds(filters, NOW).bounds, [{ column: 'droppedAt', min: march(1), max: march(5) - 1 }]);
    assert.deepEqual(
      feedSqlPredicates(filters, NOW).filter((predicate) => predicate.column === 'dropped_at'),
      [
        { column: 'dropped_at', op: '>=', value: march(1) },
        { column: 'dropped_at', op: '<', value: march(5) },
      ],
    );
  });

  test('bad input is a FeedFilterError with its catalogued code and the parameter', () => {
    const codeOf = (query: Record<string, string>) => {
      try {
        parseFeedFilters(query, TLDS);
      } catch (error) {
        assert.ok(error instanceof FeedFilterError);
        return [error.code, error.options.details.parameter];
      }
      return null;
    };
    assert.deepEqual(codeOf({ min_da: '101' }), ['invalid_min_da', 'min_da']);
    assert.deepEqual(codeOf({ tld: 'xyz' }), ['unknown_tld', 'tld']);
    assert.deepEqual(codeOf({ contains: 'a%' }), ['invalid_contains', 'contains']);
    assert.deepEqual(codeOf({ dropped_after: '2026-03-05', dropped_before: '2026-03-01' }), [
      'invalid_date_range',
      'dropped_after',
    ]);
    assert.deepEqual(codeOf({ drops_after: '2026-03-05' }), ['drops_filter_needs_pending_delete', 'drops_after']);
    assert.equal(codeOf({ drops_after: '2026-03-05', status: 'pending-delete' }), null);
  });
});

describe('ends_with (the filter added as one entry of FEED_FILTERS)', () => {
  const rows = ['shop.com', 'eshop.net', 'shopping.org', 'shop-shop.com', 'p.com', 'xn--shop.com'];

  test('matches labels ending in the text, never the TLD, in the index as in its SQL LIKE', () => {
    const filters = parseFeedFilters({ ends_with: 'SHOP ', status: 'any' }, TLDS);
    assert.equal(filters.endsWith, 'shop');
    assert.deepEqual(
      feedSqlPredicates(filters, NOW).find((predicate) => predicate.column === 'label'),
      { column: 'label', op: 'like', value: '%shop' },
    );
    const columns = FeedColumns.fromRows(rows.map((domain) => columnRow(domain)));
    const matches = compileFeedMatcher(columns, filters, NOW);
    const like = /^[^.]*shop\./;
    assert.deepEqual(
      rows.filter((_, i) => matches(i)),
      rows.filter((domain) => like.test(domain)),
    );
    assert.deepEqual(
      rows.filter((_, i) => matches(i)),
      ['shop.com', 'eshop.net', 'shop-shop.com', 'xn--shop.com'],
    );
    const com = compileFeedMatcher(columns, parseFeedFilters({ ends_with: 'com', status: 'any' }, TLDS), NOW);
    assert.deepEqual(
      rows.filter((_, i) => com(i)),
      [],
    );
  });

  test('bad text is invalid_ends_with', () => {
    assert.throws(
      () => parseFeedFilters({ ends_with: 'sh%p' }, TLDS),
      (error) => error instanceof FeedFilterError && error.code === 'invalid_ends_with',
    );
  });
});

describe('every label-text filter (contains, ends_with, …: a new one is tested without an entry here)', () => {
  const rows = ['shop.com', 'eshop.net', 'shopping.org', 'shop-shop.com', 'p.com', 'xn--shop.com', 'sho.com', 's.shop'];
  const columns = FeedColumns.fromRows(rows.map((domain) => columnRow(domain)));
  const labelTextFilters = Object.values(FEED_FILTERS).filter(
    (definition) => FEED_FILTER_WIRE[definition.parameter].value === 'label-text',
  );

  test('matches in the index the labels its SQL LIKE matches, never the TLD', () => {
    assert.ok(labelTextFilters.length >= 2);
    for (const { parameter } of labelTextFilters) {
      for (const text of ['shop', 'SHOP ', 's', 'p', 'xn--', 'com', 'hop-s']) {
        const filters = parseFeedFilters({ [parameter]: text, status: 'any' }, TLDS);
        const like = feedSqlPredicates(filters, NOW).find((predicate) => predicate.column === 'label');
        assert.ok(like && like.op === 'like' && typeof like.value === 'string', parameter);
        const pattern = new RegExp(`^${like.value.replaceAll('%', '.*')}$`);
        const matches = compileFeedMatcher(columns, filters, NOW);
        assert.deepEqual(
          rows.filter((_, i) => matches(i)),
          rows.filter((domain) => pattern.test(domain.slice(0, domain.indexOf('.')))),
          `${parameter}=${text}`,
        );
      }
    }
  });

  test("bad text is the filter's own invalid_ code", () => {
    for (const { parameter } of labelTextFilters) {
      assert.throws(
        () => parseFeedFilters({ [parameter]: 'sh%p' }, TLDS),
        (error) => error instanceof FeedFilterError && error.code === `invalid_${parameter}`,
      );
    }
  });
});

function columnRow(domain: string): FeedColumnRow {
  const label = domain.slice(0, domain.indexOf('.'));
  return {
    domain,
    tld: domain.slice(domain.indexOf('.') + 1),
    status: 'dropped',
    dropped_at: NOW,
    first_archived_at: null,
    alt_tld_count: null,
    da: null,
    tf: null,
    length: label.length,
    has_hyphen: label.includes('-') ? 1 : 0,
    has_digit: /\d/.test(label) ? 1 : 0,
    expected_drop_at: null,
  };
}
