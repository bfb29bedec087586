import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { EnvelopeWithMeta, FEED_SORTS, FeedListMeta, FeedRecord } from '@repo/contracts/domain-intel';
import fc from 'fast-check';
import fastify from 'fastify';
import { type FeedRowData, toFeedRecord } from '../src/feed/feed-row.ts';
import { feedPageJson, feedRowJson, recordJson } from '../src/feed/feed-row-json.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const YEAR = 365.2425 * 86_400_000;

const time = fc.integer({ min: Date.parse('1990-01-01'), max: Date.parse('2030-01-01') });
const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 3 });
const text = fc.oneof(fc.string(), fc.constantFrom('a"b.com', 'back\\slash.net', 'tab\there.org', 'ünï.com'));
const rowArbitrary: fc.Arbitrary<FeedRowData> = fc.record({
  domain: text,
  tld: text,
  status: fc.constantFrom('dropped', 'pending-delete', 'redemption', 'left-zone', 'returned', 'new'),
  dropped_at: nullable(time),
  first_archived_at: nullable(
    fc.oneof(
      time,
      fc.integer({ min: 0, max: 40 }).map((tenths) => Math.floor(NOW - (tenths / 10) * YEAR)),
    ),
  ),
  alt_tld_count: nullable(fc.integer({ min: 0, max: 9 })),
  alt_tlds: nullable(fc.constantFrom('', 'net', 'net,org,info')),
  da: nullable(fc.integer({ min: 0, max: 100 })),
  tf: nullable(fc.integer({ min: 0, max: 100 })),
  length: fc.integer({ min: 1, max: 63 }),
  has_hyphen: fc.constantFrom(0, 1),
  has_digit: fc.constantFrom(0, 1),
  verified_at: nullable(time),
  expected_drop_at: nullable(time),
  zone_date: nullable(fc.constantFrom('2026-03-09', '2026-03-10')),
  expected_drop_earliest: nullable(time),
  expected_drop_latest: nullable(time),
});
const clock = fc.oneof(fc.constant(NOW), time);

/**
 * The page as /v1/domains wrote it before it wrote its own JSON: records returned as objects
 * and serialized by Fastify from the route's response schema.
 */
const schemaSerialized: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/page',
    {
      schema: {
        body: Type.Any(),
        response: { 200: EnvelopeWithMeta(Type.Array(FeedRecord), FeedListMeta) },
      },
    },
    async (request) => request.body as never,
  );
};

describe('feed records written as JSON', () => {
  test('the page is the same text the response schema serializer writes, at any clock', async () => {
    const app = fastify();
    await app.register(schemaSerialized);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(rowArbitrary, { maxLength: 5 }),
          clock,
          fc.record({
            request_id: text,
            total: fc.nat(),
            limit: fc.integer({ min: 1, max: 100 }),
            offset: fc.nat({ max: 10_000 }),
            sort: fc.constantFrom(...FEED_SORTS),
          }),
          async (rows, now, meta) => {
            const records = rows.map((row) => toFeedRecord(row, now));
            const expected = await app.inject({ method: 'POST', url: '/page', payload: { data: records, meta } });
            assert.equal(expected.statusCode, 200, expected.body);
            const written = feedPageJson(
              rows.map((row) => recordJson(feedRowJson(row), now)),
              meta,
            );
            assert.equal(written, expected.body);
          },
        ),
        { numRuns: 300, seed: 13 },
      );
    } finally {
      await app.close();
    }
  });

  test('a row written once gives its age at each later clock', () => {
    const row = {
      domain: 'old.com',
      tld: 'com',
      status: 'dropped',
      dropped_at: NOW,
      first_archived_at: NOW - 3 * YEAR,
      alt_tld_count: 2,
      alt_tlds: 'net,org',
      da: 40,
      tf: null,
      length: 3,
      has_hyphen: 0,
      has_digit: 0,
      verified_at: NOW,
      expected_drop_at: null,
      zone_date: null,
      expected_drop_earliest: null,
      expected_drop_latest: null,
    } satisfies FeedRowData;
    const json = feedRowJson(row);
    assert.equal(JSON.parse(recordJson(json, NOW)).age_years, 3);
    assert.equal(JSON.parse(recordJson(json, NOW + 0.55 * YEAR)).age_years, 3.5);
    assert.deepEqual(JSON.parse(recordJson(json, NOW)), toFeedRecord(row, NOW));
  });
});
