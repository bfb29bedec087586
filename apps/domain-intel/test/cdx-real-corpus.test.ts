import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readCdxAnswer, WaybackClient } from '../src/enrich/wayback-client.ts';
import { readReal } from './real-corpus.ts';
import { ReplayServer } from './replay-server.ts';

/**
 * Real Wayback CDX answers (fixtures/real/cdx, origins in SOURCES.md): the example answers of the
 * CDX server's own README (plain text and JSON, with a resume key) and answers web.archive.org
 * sent to cdx_toolkit. Expected values read off the files by hand.
 */
const README = readReal('cdx/wayback-cdx-server-README.md');

/** The fenced block that follows the README line containing `marker`. */
function exampleAfter(marker: string): string {
  const start = README.indexOf(marker);
  assert.ok(start >= 0, marker);
  const match = /```\n([\s\S]*?)```/.exec(README.slice(start));
  return match![1]!;
}

const PLAIN_WITH_KEY = exampleAfter(
  'Plain text example: http://web.archive.org/cdx/search/cdx?url=archive.org&limit=5',
);
const JSON_WITH_KEY = exampleAfter('JSON example: http://web.archive.org/cdx/search/cdx?url=archive.org&limit=5');
const JSON_LIMIT_3 = exampleAfter('Ex: http://web.archive.org/cdx/search/cdx?url=archive.org&output=json&limit=3');
const RESUME_KEY = 'org%2Carchive%29%2F+19980109140106%21';
const FIRST_ARCHIVE_ORG = {
  urlkey: 'org,archive)/',
  timestamp: '19970126045828',
  original: 'http://www.archive.org:80/',
  mimetype: 'text/html',
  statuscode: '200',
  digest: 'Q4YULN754FHV2U6Q5JUT6Q2P57WEWNNY',
  length: '1415',
};

interface Recorded {
  url: string;
  response_status_code: number;
  response_text: string;
  response_headers: Record<string, string>;
}
const recordings = (file: string): Recorded[] =>
  readReal(file)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Recorded);

describe('real CDX answers, read', () => {
  it('plain text with a resume key after a blank line (the default output)', () => {
    const answer = readCdxAnswer(PLAIN_WITH_KEY);
    assert.equal(answer.captures.length, 5);
    assert.deepEqual(answer.captures[0], FIRST_ARCHIVE_ORG);
    assert.equal(answer.captures[4]?.timestamp, '19980109140106');
    assert.equal(answer.captures[4]?.original, 'http://archive.org:80/');
    assert.equal(answer.resumeKey, RESUME_KEY);
  });

  it('JSON with a resume key after an empty row', () => {
    const answer = readCdxAnswer(JSON_WITH_KEY);
    assert.equal(answer.captures.length, 5);
    assert.deepEqual(answer.captures[0], FIRST_ARCHIVE_ORG);
    assert.equal(answer.resumeKey, RESUME_KEY);
  });

  it('JSON without a resume key', () => {
    const answer = readCdxAnswer(JSON_LIMIT_3);
    assert.deepEqual(
      answer.captures.map((capture) => capture.timestamp),
      ['19970126045828', '19971011050034', '19971211122953'],
    );
    assert.equal(answer.resumeKey, null);
  });

  it('the answers web.archive.org sent to cdx_toolkit (JSON, gzip)', () => {
    const [capture] = recordings('cdx/cdx_toolkit-test_capture_object.jsonl');
    assert.equal(capture?.response_headers['Content-Encoding'], 'gzip');
    const answer = readCdxAnswer(capture!.response_text);
    assert.equal(answer.captures[0]?.urlkey, 'com,example)/');
    assert.equal(answer.captures[0]?.timestamp, '20020120142510');
    const [multi] = recordings('cdx/cdx_toolkit-test_multi_ia.jsonl');
    assert.equal(readCdxAnswer(multi!.response_text).captures[0]?.timestamp, '20080328041443');
  });
});

describe('real CDX answers through the Wayback client', () => {
  // "By default, CDX server returns gzip encoded data for all queries" (the README): served so.
  for (const [output, body, type] of [
    ['plain text', PLAIN_WITH_KEY, 'text/plain'],
    ['JSON', JSON_WITH_KEY, 'application/json'],
  ] as const) {
    it(`first capture from the ${output} answer with a resume key, gzip-encoded`, async () => {
      const server = await new ReplayServer().start();
      let query: URLSearchParams | undefined;
      let acceptEncoding: string | undefined;
      server.answer('/cdx/search/cdx', (request) => {
        query = new URL(request.url ?? '/', 'http://replay').searchParams;
        acceptEncoding = request.headers['accept-encoding'];
        return {
          status: 200,
          headers: { 'content-type': type, 'content-encoding': 'gzip' },
          body: gzipSync(body),
        };
      });
      const wayback = new WaybackClient({
        cdxUrl: `${server.url}/cdx/search/cdx`,
        requestsPerMinute: 6000,
        timeoutMs: 5000,
      });
      try {
        assert.equal(await wayback.firstCapture('archive.org'), Date.UTC(1997, 0, 26, 4, 58, 28));
        assert.equal(query?.get('url'), 'archive.org');
        assert.equal(query?.get('limit'), '1');
        // No `fl=`: a plain-text answer is read by the documented default field order.
        assert.equal(query?.get('fl'), null);
        assert.match(acceptEncoding ?? '', /gzip/);
      } finally {
        await wayback.close();
        await server.close();
      }
    });
  }
});
