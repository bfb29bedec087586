import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { EnrichmentSourceError } from '../src/enrich/http-json.ts';
import { parseIndexItemInfo } from '../src/enrich/majestic-client.ts';
import { parseUrlMetrics } from '../src/enrich/moz-client.ts';
import { parseCdxTimestamp, parseFirstCapture } from '../src/enrich/wayback-client.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('Wayback CDX parsing', () => {
  it('reads the first capture from the header-row JSON format', () => {
    assert.equal(parseFirstCapture(fixture('wayback/first-capture.json')), Date.UTC(1997, 0, 26, 4, 58, 28));
    assert.equal(parseFirstCapture(fixture('wayback/all-fields.json')), Date.UTC(2002, 0, 20, 14, 25, 10));
  });
  it('reads [] as never archived', () => {
    assert.equal(parseFirstCapture(fixture('wayback/empty.json')), null);
  });
  it('refuses malformed answers instead of guessing', () => {
    assert.throws(() => parseFirstCapture({ error: 'x' }), EnrichmentSourceError);
    assert.throws(() => parseFirstCapture([['original'], ['http://a.com/']]), /timestamp/);
    assert.throws(() => parseFirstCapture([['timestamp'], ['2024']]), /bad CDX timestamp/);
    assert.equal(parseCdxTimestamp('20240230000000'), null);
    assert.equal(parseCdxTimestamp('20240229'), Date.UTC(2024, 1, 29));
  });
});

describe('Moz url_metrics parsing', () => {
  it('maps results to targets in order; a target without domain_authority is null', () => {
    const metrics = parseUrlMetrics(fixture('moz/url-metrics.json'), ['moz.com', 'nowhere-at-all-example.com']);
    assert.deepEqual(
      [...metrics],
      [
        ['moz.com', 91],
        ['nowhere-at-all-example.com', null],
      ],
    );
  });
  it('refuses an answer whose results do not match the targets', () => {
    assert.throws(() => parseUrlMetrics(fixture('moz/url-metrics.json'), ['moz.com']), EnrichmentSourceError);
    assert.throws(() => parseUrlMetrics(fixture('moz/unauthorized.json'), ['moz.com']), EnrichmentSourceError);
  });
});

describe('Majestic GetIndexItemInfo parsing', () => {
  it('reads TrustFlow and CitationFlow per item; items missing from the table are null', () => {
    const metrics = parseIndexItemInfo(fixture('majestic/get-index-item-info.json'), [
      'majestic.com',
      'example.org',
      'absent.net',
    ]);
    assert.deepEqual(metrics.get('majestic.com'), { tf: 68, cf: 63 });
    assert.deepEqual(metrics.get('example.org'), { tf: 14, cf: 22 });
    assert.deepEqual(metrics.get('absent.net'), { tf: null, cf: null });
  });
  it('turns a non-OK Code into an error', () => {
    assert.throws(() => parseIndexItemInfo(fixture('majestic/invalid-key.json'), ['a.com']), /InvalidAPIKey/);
  });

  it('Majestic: an item the index does not know (Status NotFound, TrustFlow 0) is unknown, not TF 0', () => {
    const metrics = parseIndexItemInfo(fixture('synthetic/majestic-not-found.json'), [
      'majestic.com',
      'never-linked-example-name.com',
    ]);
    assert.deepEqual(metrics.get('majestic.com'), { tf: 68, cf: 63 });
    assert.deepEqual(metrics.get('never-linked-example-name.com'), { tf: null, cf: null });
  });
});
