import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerDrift, parseSampleJson } from './doc-samples-answer.ts';
import { samplesOf } from './doc-samples-blocks.ts';

const returned = {
  data: [
    { domain: 'a.com', available: true, status: 'available', source: 'rdap', checked_at: '2026-11-27T10:00:00.000Z' },
    { domain: 'b.com', available: false, status: 'registered', source: 'zone', checked_at: '2026-11-27T10:00:01.000Z' },
  ],
  meta: { request_id: 'req_9', count: 2 },
};

/** The loose rule of the doc test: drift in fields and outcomes fails, ids, times and counts do not. */
describe('a guide’s answer against the answer returned', () => {
  it('other ids, times and counts pass', () => {
    const sample = parseSampleJson(`{"data":[{"domain":"x.com","available":true,"status":"available","source":"rdap",
      "checked_at":"2020-01-01T00:00:00Z"}, …], "meta":{"request_id":"req-…","count":7}}`);
    assert.deepEqual(answerDrift(sample, returned), []);
  });

  it('a field added, dropped or renamed, another status or source, or a missing meta key fails', () => {
    const row = { domain: 'x', available: true, status: 'available', source: 'rdap', checked_at: 't' };
    const drift = (data: unknown[], meta: object = { request_id: 'r', count: 1 }) =>
      answerDrift({ data, meta }, returned);
    assert.match(drift([{ ...row, server: 's' }]).join(), /the sample shows server, not returned/);
    assert.match(
      drift([{ domain: 'x', available: true, status: 'available', source: 'rdap' }]).join(),
      /returned checked_at/,
    );
    assert.match(drift([{ ...row, status: 'registered' }]).join(), /data\[0\]\.status/);
    assert.match(drift([row, { ...row, source: 'rdap' }]).join(), /data\[1\]\.source/);
    assert.match(drift([row], { request_id: 'r' }).join(), /meta: returned count/);
    assert.match(drift([row, row, row]).join(), /shows 3 items, returned 2/);
  });

  it('"…" as a key allows more fields; an error code must be the same', () => {
    assert.deepEqual(answerDrift({ data: [{ domain: 'x', '…': '…' }, '…'], meta: { '…': '…' } }, returned), []);
    const error = { error: { code: 'invalid_limit', message: 'm', request_id: 'r', docs: 'd' } };
    assert.deepEqual(answerDrift(error, { error: { ...error.error, message: 'other' } }), []);
    assert.match(answerDrift(error, { error: { ...error.error, code: 'missing_key' } }).join(), /error.code/);
    assert.match(
      answerDrift({ api: { total: 1 }, output: 3 }, { api: { total: 1 }, output: { error: { code: 'x' } } }).join(),
      /output/,
    );
  });
});

describe('which blocks of a guide run', () => {
  const guide = [
    '```sh',
    'curl "$BASE/v1/quota"',
    '```',
    '```json',
    '{"data": {}}',
    '```',
    'Text between.',
    '```json',
    '{"data": {}}',
    '```',
    '```sh no-run',
    'curl https://example.com/',
    '```',
    '```',
    'GET /v1/domains',
    '```',
    '```bash',
    'npx domain-intel migrate',
    '```',
    '```python verify-launch',
    'def f(): pass',
    '```',
  ].join('\n');

  it('a call runs with the JSON right after it as its answer; a no-run call, a command line and a shape do not', () => {
    const samples = samplesOf('x.md', guide);
    assert.deepEqual(
      samples.map((sample) => [sample.line, sample.kind ?? null, sample.skip ?? null]),
      [
        [1, 'shell', null],
        [4, null, 'the answer of the call above (checked with it)'],
        [8, null, 'an answer shape, not a call'],
        [11, 'shell', 'marked no-run'],
        [14, 'transcript', null],
        [17, null, 'no HTTP call'],
        [20, 'python', 'run by platform-launch-samples.test.ts'],
      ],
    );
    assert.equal(samples[0]!.answer?.line, 4);
  });
});
