import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, redisTarget, tempDir } from '@repo/server-kit/testing';
import { feedRow } from './feed-helpers.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;

function zoneFile(dir: string, tld: string, labels: string[]): string {
  const file = path.join(dir, `${tld}-${labels.length}.zone`);
  const lines = [`$ORIGIN ${tld}.`, '$TTL 86400', `@ IN SOA a.nic.${tld}. h.nic.${tld}. 1 1800 900 604800 86400`];
  for (const label of labels) lines.push(`${label} IN NS ns1.${label}.${tld}.`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

for (const target of databaseTargets()) {
  describe(`feed endpoints: sample, export, snapshots (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let free: string;
    let enterprise: string;
    const files = tempDir('zones');

    before(async () => {
      t = await createTestApp({ target, env: { SAMPLE_RATE_PER_DAY: '3' } });
      free = await t.keyFor('free');
      enterprise = await t.keyFor('enterprise');
      await t.app.ctx.database.db
        .insertInto('feed_domains')
        .values([
          feedRow('alpha.com', { dropped_at: NOW - DAY, da: 20, tf: 9, first_archived_at: NOW - 3 * 365 * DAY }),
          feedRow('beta.net', { dropped_at: NOW - 2 * DAY, da: 50 }),
          feedRow('gamma.com', { status: 'pending-delete', dropped_at: null }),
        ])
        .execute();
      await t.app.ctx.zones.importZoneFile({
        tld: 'com',
        date: '2026-03-09',
        file: zoneFile(files.dir, 'com', ['b', 'a']),
      });
      await t.app.ctx.zones.importZoneFile({
        tld: 'com',
        date: '2026-03-10',
        file: zoneFile(files.dir, 'com', ['c', 'a', 'b']),
      });
    });
    after(async () => {
      await t.close();
      files.remove();
    });

    describe('GET /v1/sample', () => {
      it('needs no key, returns at most one record in the feed shape, and is limited per IP', async () => {
        const found = await t.app.inject('/v1/sample?domain=Alpha.com');
        assert.equal(found.statusCode, 200, found.body);
        assert.equal(found.json().data.length, 1);
        assert.equal(found.json().data[0].domain, 'alpha.com');
        assert.equal(found.json().data[0].age_years, 2.9);
        assert.deepEqual(Object.keys(found.json().data[0]).sort(), [
          'age_years',
          'alt_tld_count',
          'alt_tlds',
          'da',
          'domain',
          'dropped_at',
          'expected_drop_at',
          'expected_drop_earliest',
          'expected_drop_latest',
          'first_archived',
          'first_seen',
          'has_digit',
          'has_hyphen',
          'length',
          'status',
          'tf',
          'tld',
          'verified_at',
        ]);
        const none = await t.app.inject('/v1/sample?domain=never-seen.com');
        assert.deepEqual(none.json().data, []);
        const third = await t.app.inject('/v1/sample?domain=beta.net');
        assert.equal(third.statusCode, 200);
        const limited = await t.app.inject('/v1/sample?domain=beta.net');
        assert.equal(limited.statusCode, 429);
        assert.equal(limited.json().error.code, 'rate_limited');
        assert.ok(Number(limited.headers['retry-after']) > 0);
        const otherClient = await t.app.inject({ url: '/v1/sample?domain=beta.net', remoteAddress: '198.51.100.7' });
        assert.equal(otherClient.statusCode, 200);
        // Not counted against any key.
        const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(free) });
        assert.equal(quota.json().data.used, 0);
      });

      it('rejects bad input with a code', async () => {
        const ask = (query: string) => t.app.inject({ url: `/v1/sample${query}`, remoteAddress: '203.0.113.9' });
        assert.equal((await ask('')).json().error.code, 'missing_domain');
        assert.equal((await ask('?domain=not a domain')).json().error.code, 'invalid_domain');
        const untracked = await ask('?domain=example.dev');
        assert.equal(untracked.statusCode, 400);
        assert.equal(untracked.json().error.code, 'unknown_tld');
      });
    });

    describe('GET /v1/domains/export', () => {
      it('is Enterprise only', async () => {
        const response = await t.app.inject({ url: '/v1/domains/export', headers: bearer(free) });
        assert.equal(response.statusCode, 403);
        assert.equal(response.json().error.code, 'plan_required');
      });

      it('streams NDJSON and CSV with the feed filters', async () => {
        const ndjson = await t.app.inject({ url: '/v1/domains/export', headers: bearer(enterprise) });
        assert.equal(ndjson.statusCode, 200, ndjson.body);
        assert.match(String(ndjson.headers['content-type']), /application\/x-ndjson/);
        const records = ndjson.body
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        assert.deepEqual(
          records.map((r) => r.domain),
          ['alpha.com', 'beta.net'],
        );

        const csv = await t.app.inject({
          url: '/v1/domains/export?format=csv&tld=net&min_da=40',
          headers: bearer(enterprise),
        });
        assert.equal(csv.statusCode, 200);
        const lines = csv.body.trim().split('\n');
        assert.equal(
          lines[0],
          'domain,tld,status,dropped_at,first_archived,age_years,alt_tld_count,alt_tlds,da,tf,length,has_hyphen,has_digit,verified_at,expected_drop_at,first_seen,expected_drop_earliest,expected_drop_latest',
        );
        assert.equal(lines.length, 2);
        assert.match(lines[1]!, /^beta\.net,net,dropped,/);
      });

      it('rejects paging parameters, bad formats and bad filters', async () => {
        const ask = async (query: string) =>
          (await t.app.inject({ url: `/v1/domains/export${query}`, headers: bearer(enterprise) })).json().error.code;
        assert.equal(await ask('?limit=10'), 'unsupported_parameter');
        assert.equal(await ask('?format=xml'), 'invalid_format');
        assert.equal(await ask('?tld=dev'), 'unknown_tld');
        assert.equal(await ask('?dropped_after=soon'), 'invalid_date');
      });
    });

    describe('GET /v1/snapshots', () => {
      it('is Enterprise only', async () => {
        for (const url of ['/v1/snapshots', '/v1/snapshots/com/2026-03-10']) {
          const response = await t.app.inject({ url, headers: bearer(free) });
          assert.equal(response.statusCode, 403);
          assert.equal(response.json().error.code, 'plan_required');
        }
      });

      it('lists the snapshots newest first and streams one as sorted names', async () => {
        const list = await t.app.inject({ url: '/v1/snapshots?tld=com', headers: bearer(enterprise) });
        assert.equal(list.statusCode, 200, list.body);
        assert.deepEqual(
          list.json().data.map((s: { date: string; names: number; download: string }) => [s.date, s.names, s.download]),
          [
            ['2026-03-10', 3, '/v1/snapshots/com/2026-03-10'],
            ['2026-03-09', 2, '/v1/snapshots/com/2026-03-09'],
          ],
        );
        const file = await t.app.inject({ url: '/v1/snapshots/com/2026-03-10', headers: bearer(enterprise) });
        assert.equal(file.statusCode, 200);
        assert.equal(file.body, 'a.com\nb.com\nc.com\n');
        assert.match(String(file.headers['content-disposition']), /com-2026-03-10\.txt/);
      });

      it('answers unknown TLDs, bad dates and missing days with clear errors', async () => {
        const ask = (url: string) => t.app.inject({ url, headers: bearer(enterprise) });
        const missing = await ask('/v1/snapshots/com/2026-03-01');
        assert.equal(missing.statusCode, 404);
        assert.equal(missing.json().error.code, 'snapshot_not_found');
        assert.equal((await ask('/v1/snapshots/dev/2026-03-10')).json().error.code, 'unknown_tld');
        const badDate = await ask('/v1/snapshots/com/2026-02-30');
        assert.equal(badDate.statusCode, 400);
        assert.equal(badDate.json().error.code, 'invalid_date');
        assert.equal((await ask('/v1/snapshots?tld=dev')).json().error.code, 'unknown_tld');
      });
    });
  });
}

const redis = redisTarget();
describe('GET /v1/sample with the Redis rate-limit store', { skip: redis.skip }, () => {
  it('limits per client IP through Redis', async () => {
    const [sqlite] = databaseTargets();
    const t = await createTestApp({ target: sqlite!, redis: true, env: { SAMPLE_RATE_PER_DAY: '2' } });
    try {
      const ask = () => t.app.inject({ url: '/v1/sample?domain=example.com', remoteAddress: '192.0.2.44' });
      assert.equal((await ask()).statusCode, 200);
      assert.equal((await ask()).statusCode, 200);
      const limited = await ask();
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().error.code, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      const keys = await t.app.ctx.redis!.keys('*sample-rate*');
      assert.ok(keys.length > 0, 'the counter lives in Redis');
    } finally {
      await t.close();
    }
  });
});
