import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, testTimeoutEnv } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { feedRow } from '../../../apps/domain-intel/test/feed-helpers.ts';
import { simRdapEnv } from '../../../apps/domain-intel/test/rdap-helpers.ts';
import { DomainIntelClient, DomainIntelError, FEED_MAX_OFFSET, hasCode, TimeoutError } from '../src/index.ts';
import { startHangingServer } from './hanging-server.ts';
import { type RunningDomainIntel, startDomainIntel } from './servers.ts';

const FEED_ROWS = 10_250;
const DAY = 86_400_000;

/** More verified drops than the offset cap lets anyone page through, spread over TLDs and days. */
async function seedFeed(t: RunningDomainIntel): Promise<void> {
  const now = Date.parse('2026-03-10T12:00:00Z');
  const tlds = ['com', 'net', 'org'];
  const rows = Array.from({ length: FEED_ROWS }, (_, i) =>
    feedRow(`drop${String(i).padStart(5, '0')}.${tlds[i % 3]}`, { dropped_at: now - (i % 20) * DAY, da: i % 100 }),
  );
  for (let start = 0; start < rows.length; start += 500) {
    await t.app.ctx.database.db
      .insertInto('feed_domains')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}

for (const target of databaseTargets()) {
  describe(`DomainIntelClient against the running API (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: RunningDomainIntel;
    let starter: DomainIntelClient;
    let enterprise: DomainIntelClient;
    before(async () => {
      sim = await startUpstreamSim();
      sim.world.register('taken.com');
      t = await startDomainIntel(
        target,
        simRdapEnv(sim, { CHECK_DEADLINE_MS: testTimeoutEnv(1_500), FEED_COUNT_CACHE_SECONDS: '0' }),
      );
      await seedFeed(t);
      starter = new DomainIntelClient({ baseUrl: t.baseUrl, apiKey: await t.keyFor('starter') });
      enterprise = new DomainIntelClient({ baseUrl: t.baseUrl, apiKey: await t.keyFor('enterprise') });
    });
    after(async () => {
      await t?.close();
      await sim?.close();
    });

    it('checks one name and many (31 names: two calls, order kept), reads WHOIS and suggests', async () => {
      const one = await starter.check('taken.com');
      assert.equal(one.status, 'registered');
      assert.equal(one.available, false);

      const names = ['taken.com', ...Array.from({ length: 30 }, (_, i) => `free-name-${i}.com`)];
      const before = (await starter.quota()).used;
      const many = await starter.checkMany(names);
      assert.deepEqual(
        many.map((row) => row.domain),
        names,
      );
      assert.equal(many[1]!.status, 'available');
      assert.equal((await starter.quota()).used, before + 2, 'two calls for 31 names');

      const whois = await starter.whois('taken.com');
      assert.equal(whois.domain, 'taken.com');
      assert.equal(whois.registered, true);
      assert.equal(whois.source, 'rdap');

      const tlds = await starter.tlds();
      assert.ok(tlds.length >= 1_400, `${tlds.length} TLDs`);
      const com = await starter.tld('.COM');
      assert.deepEqual([com.tld, com.answered_by, com.availability], ['com', 'rdap', 'full']);
      const quotaBefore = (await starter.quota()).used;
      const drops = await starter.tldDrops('.COM');
      assert.equal(drops.tld, 'com');
      assert.equal(typeof drops.forecast_error.drops, 'number');
      assert.equal((await starter.quota()).used, quotaBefore, 'the drop report is not counted');

      const suggestions = await starter.suggest('coffee', { tld: ['com', 'net'] });
      assert.ok(suggestions.length <= 20);
      assert.ok(suggestions.every((suggestion) => suggestion.available && ['com', 'net'].includes(suggestion.tld)));
    });

    it('reads the quota and remembers the rate-limit headers of the last call', async () => {
      const client = new DomainIntelClient({ baseUrl: t.baseUrl, apiKey: await t.keyFor('free') });
      await client.domains({ limit: 1 });
      const quota = await client.quota();
      assert.equal(quota.plan, 'free');
      assert.equal(quota.used, 1);
      assert.equal(quota.remaining, 99);
      assert.deepEqual(client.rateLimit, {
        limit: 100,
        remaining: 99,
        resetsAt: new Date('2026-03-11T00:00:00Z'),
      });
    });

    it('pages the feed to the offset cap: 101 pages of 100, the last one at offset 10 000', async () => {
      const offsets: number[] = [];
      const seen = new Set<string>();
      for await (const page of enterprise.domainPages({ sort: 'da' })) {
        offsets.push(page.offset);
        assert.equal(page.total, FEED_ROWS);
        for (const record of page.records) seen.add(record.domain);
      }
      assert.equal(offsets.length, 101);
      assert.equal(offsets.at(-1), FEED_MAX_OFFSET);
      assert.equal(seen.size, FEED_MAX_OFFSET + 100, 'no record twice, none skipped');
    });

    it('stops at the end of a short result and passes every filter', async () => {
      const records = [];
      for await (const record of enterprise.iterateDomains({
        tld: 'net',
        minDa: 90,
        droppedAfter: new Date('2026-02-24T12:00:00Z'),
        limit: 40,
      })) {
        records.push(record);
      }
      const expected = Array.from({ length: FEED_ROWS }, (_, i) => i).filter(
        (i) => i % 3 === 1 && i % 100 >= 90 && i % 20 <= 14,
      ).length;
      assert.ok(expected > 120, 'several pages of 40');
      assert.equal(records.length, expected);
      assert.ok(records.every((record) => record.tld === 'net' && record.da! >= 90));
    });

    it('previews one domain without a key', async () => {
      const keyless = new DomainIntelClient({ baseUrl: t.baseUrl });
      const record = await keyless.sample('drop00001.net');
      assert.equal(record?.domain, 'drop00001.net');
      assert.equal(await keyless.sample('never-seen-anywhere.com'), null);
    });

    it('throws errors typed by their code', async () => {
      const badKey = new DomainIntelClient({ baseUrl: t.baseUrl, apiKey: 'di_live_nope' });
      const unauthorized = await badKey.quota().catch((error: unknown) => error);
      assert.ok(unauthorized instanceof DomainIntelError);
      assert.equal(unauthorized.status, 401);
      assert.equal(unauthorized.code, 'invalid_key');
      assert.ok(unauthorized.requestId);

      const invalid = await starter.domains({ minDa: 500 }).catch((error: unknown) => error);
      assert.ok(hasCode(invalid, 'invalid_min_da'));
      assert.equal(invalid.status, 400);
      assert.equal(invalid.details.parameter, 'min_da');
    });

    it('retries a 429 after Retry-After when allowed, and only then', async () => {
      t.clock.set('2026-03-10T23:59:59Z');
      try {
        const apiKey = await t.keyFor('free');
        const client = new DomainIntelClient({ baseUrl: t.baseUrl, apiKey });
        for (let i = 0; i < 100; i++) await client.domains({ limit: 1 });

        const refused = await client.domains({ limit: 1 }).catch((error: unknown) => error);
        assert.ok(hasCode(refused, 'quota_exceeded'));
        assert.equal(refused.retryAfterSeconds, 1);
        assert.equal(client.rateLimit?.remaining, 0);

        const tooLong = await client
          .domains({ limit: 1 }, { retry: { maxWaitSeconds: 0, onRetry: () => assert.fail('must not wait') } })
          .catch((error: unknown) => error);
        assert.ok(hasCode(tooLong, 'quota_exceeded'), 'a Retry-After beyond maxWaitSeconds is thrown at once');

        const retries: number[] = [];
        const page = await client.domains(
          { limit: 1 },
          {
            retry: {
              maxRetries: 1,
              // While the client sleeps the server's day ends: its manual clock moves on.
              onRetry: ({ waitSeconds }) => {
                retries.push(waitSeconds);
                t.clock.set('2026-03-11T00:00:00Z');
              },
            },
          },
        );
        assert.equal(page.records.length, 1);
        assert.deepEqual(retries, [1]);
        assert.equal(client.rateLimit?.remaining, 99);
      } finally {
        t.clock.set('2026-03-10T12:00:00Z');
      }
    });
  });
}

describe('DomainIntelClient timeouts and abort signals', () => {
  let hanging: Awaited<ReturnType<typeof startHangingServer>>;
  before(async () => {
    hanging = await startHangingServer();
  });
  after(async () => hanging?.close());

  it('gives up after timeoutMs with a TimeoutError', async () => {
    const client = new DomainIntelClient({ baseUrl: hanging.baseUrl, apiKey: 'di_live_x', timeoutMs: 50 });
    const error = await client.quota().catch((caught: unknown) => caught);
    assert.ok(error instanceof TimeoutError);
    assert.equal(error.timeoutMs, 50);
  });

  it("rejects with the caller's abort reason, before or during the call", async () => {
    const client = new DomainIntelClient({ baseUrl: hanging.baseUrl, apiKey: 'di_live_x', timeoutMs: 0 });
    const aborted = AbortSignal.abort(new Error('changed my mind'));
    await assert.rejects(client.quota({ signal: aborted }), /changed my mind/);

    const controller = new AbortController();
    const pending = client.quota({ signal: controller.signal });
    setImmediate(() => controller.abort());
    await assert.rejects(pending, { name: 'AbortError' });
  });

  it('refuses a base URL that is not http(s)', () => {
    assert.throws(() => new DomainIntelClient({ baseUrl: 'ftp://example.com' }), TypeError);
  });
});
