import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, testTimeout } from '@repo/server-kit/testing';
import { SIM_MAJESTIC_KEY, SIM_MOZ_TOKEN, SimWorld, startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { registeredElsewhere } from '../src/enrich/alt-tld-demand.ts';
import { EnrichmentService } from '../src/enrich/enrichment-service.ts';
import { MajesticClient } from '../src/enrich/majestic-client.ts';
import { MetricsCsvError } from '../src/enrich/metrics-csv.ts';
import { MozClient } from '../src/enrich/moz-client.ts';
import { WaybackClient } from '../src/enrich/wayback-client.ts';
import type { SnapshotStore } from '../src/zones/snapshot-store.ts';
import { feedRow } from './feed-helpers.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** Snapshots held in memory (the store contract only; the zones module's store is tested there). */
class MemorySnapshots implements SnapshotStore {
  constructor(private readonly zones: Record<string, Record<string, string[]>>) {}
  async dates(tld: string) {
    return Object.keys(this.zones[tld] ?? {}).sort();
  }
  async latestDate(tld: string) {
    return (await this.dates(tld)).at(-1) ?? null;
  }
  async *read(tld: string, date: string) {
    yield* [...(this.zones[tld]?.[date] ?? [])].sort();
  }
}

describe('alt-TLD demand', () => {
  it('finds each label in the latest snapshot of every other TLD by a sorted merge', async () => {
    const store = new MemorySnapshots({
      com: { '2026-03-09': ['gone.com'], '2026-03-10': ['a-b.com', 'alpha.com', 'beta.com'] },
      net: { '2026-03-10': ['a.net', 'alpha.net', 'zeta.net'] },
      org: {},
    });
    const found = await registeredElsewhere(store, ['com', 'net', 'org'], ['alpha', 'a', 'gone', 'zeta']);
    assert.deepEqual(Object.fromEntries(found), { alpha: ['com', 'net'], a: ['net'], gone: [], zeta: ['net'] });
  });
});

describe('enrichment clients against the simulator', () => {
  let sim: UpstreamSim;
  before(async () => {
    const world = new SimWorld('2026-03-10T06:00:00Z');
    world.register('ancient.com', { firstArchivedAt: Date.parse('2001-07-04T10:00:00Z'), da: 57, tf: 33, cf: 41 });
    world.register('unknown.com');
    sim = await startUpstreamSim({ world });
  });
  after(async () => sim.close());

  it('Wayback: first capture, none, and errors', async () => {
    const wayback = new WaybackClient({
      cdxUrl: `${sim.url}/wayback/cdx/search/cdx`,
      requestsPerMinute: 6000,
      timeoutMs: testTimeout(5_000),
    });
    try {
      assert.equal(await wayback.firstCapture('ancient.com'), Date.parse('2001-07-04T10:00:00Z'));
      assert.equal(await wayback.firstCapture('unknown.com'), null);
      const broken = new WaybackClient({
        cdxUrl: `${sim.url}/nothing-here`,
        requestsPerMinute: 6000,
        timeoutMs: testTimeout(5_000),
      });
      await assert.rejects(broken.firstCapture('ancient.com'), /wayback: HTTP 404/);
      await broken.close();
    } finally {
      await wayback.close();
    }
  });

  it('Moz: DA per target; a wrong token is an error, not a zero', async () => {
    const moz = new MozClient({
      url: `${sim.url}/moz/v2/url_metrics`,
      token: SIM_MOZ_TOKEN,
      timeoutMs: testTimeout(5_000),
    });
    assert.deepEqual(
      [...(await moz.domainAuthority(['ancient.com', 'unknown.com']))],
      [
        ['ancient.com', 57],
        ['unknown.com', null],
      ],
    );
    await assert.rejects(moz.domainAuthority(Array.from({ length: 51 }, (_, i) => `n${i}.com`)), RangeError);
    const wrong = new MozClient({ url: `${sim.url}/moz/v2/url_metrics`, token: 'nope', timeoutMs: testTimeout(5_000) });
    await assert.rejects(wrong.domainAuthority(['ancient.com']), /moz: HTTP 401/);
    await Promise.all([moz.close(), wrong.close()]);
  });

  it('Majestic: TF and CF from the fresh index; a wrong key is an error', async () => {
    const majestic = new MajesticClient({
      url: `${sim.url}/majestic/api/json`,
      apiKey: SIM_MAJESTIC_KEY,
      timeoutMs: testTimeout(5_000),
    });
    const flows = await majestic.flowMetrics(['ancient.com']);
    assert.deepEqual(flows.get('ancient.com'), { tf: 33, cf: 41 });
    const wrong = new MajesticClient({
      url: `${sim.url}/majestic/api/json`,
      apiKey: 'nope',
      timeoutMs: testTimeout(5_000),
    });
    await assert.rejects(wrong.flowMetrics(['ancient.com']), /InvalidAPIKey/);
    await Promise.all([majestic.close(), wrong.close()]);
  });
});

for (const target of databaseTargets()) {
  describe(`enrichment service (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    const clients: { close(): Promise<void> }[] = [];

    before(async () => {
      const world = new SimWorld('2026-03-10T06:00:00Z');
      world.register('vintage.com', { firstArchivedAt: Date.parse('2004-02-01T00:00:00Z'), da: 40, tf: 20, cf: 30 });
      world.register('blank.net');
      sim = await startUpstreamSim({ world });
      t = await createTestApp({ target });
    });
    after(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await t.close();
      await sim.close();
    });

    const service = (credentials: boolean) => {
      const wayback = new WaybackClient({
        cdxUrl: `${sim.url}/wayback/cdx/search/cdx`,
        requestsPerMinute: 6000,
        timeoutMs: testTimeout(5_000),
      });
      const moz = credentials
        ? new MozClient({ url: `${sim.url}/moz/v2/url_metrics`, token: SIM_MOZ_TOKEN, timeoutMs: testTimeout(5_000) })
        : undefined;
      const majestic = credentials
        ? new MajesticClient({
            url: `${sim.url}/majestic/api/json`,
            apiKey: SIM_MAJESTIC_KEY,
            timeoutMs: testTimeout(5_000),
          })
        : undefined;
      clients.push(wayback, ...(moz ? [moz] : []), ...(majestic ? [majestic] : []));
      return new EnrichmentService(
        t.app.ctx.database.db,
        t.clock,
        { wayback, moz, majestic },
        new MemorySnapshots({}),
        ['com', 'net'],
      );
    };
    const row = (domain: string) =>
      t.app.ctx.database.db
        .selectFrom('feed_domains')
        .selectAll()
        .where('domain', '=', domain)
        .executeTakeFirstOrThrow();

    it('without credentials: archive age from Wayback, DA and TF stay null', async () => {
      await t.app.ctx.database.db
        .insertInto('feed_domains')
        .values([feedRow('vintage.com', { enrich_due_at: 0 }), feedRow('blank.net', { enrich_due_at: 0 })])
        .execute();
      const result = await service(false).enrichDue(100);
      assert.deepEqual(result, { enriched: 2, deferred: 0, errors: [] });
      const vintage = await row('vintage.com');
      assert.equal(vintage.first_archived_at, Date.parse('2004-02-01T00:00:00Z'));
      assert.equal(vintage.da, null);
      assert.equal(vintage.tf, null);
      assert.equal((await row('blank.net')).first_archived_at, null);
    });

    it('with credentials: DA from Moz, TF/CF from Majestic; the archive answer comes from the cache', async () => {
      await t.app.ctx.database.db.updateTable('feed_domains').set({ enrich_due_at: 0 }).execute();
      const before = sim.webStats.wayback.requests;
      await service(true).enrichDue(100);
      assert.equal(sim.webStats.wayback.requests, before, 'archive captures are cached for good');
      const vintage = await row('vintage.com');
      assert.deepEqual([vintage.da, vintage.tf, vintage.cf], [40, 20, 30]);
      assert.ok(vintage.enrich_due_at! > t.clock.now());
    });

    it('defers rows when a source fails, without inventing values', async () => {
      await t.app.ctx.database.db
        .insertInto('feed_domains')
        .values(feedRow('later.com', { enrich_due_at: 0 }))
        .execute();
      const wayback = new WaybackClient({
        cdxUrl: `${sim.url}/missing`,
        requestsPerMinute: 6000,
        timeoutMs: testTimeout(5_000),
      });
      clients.push(wayback);
      const failing = new EnrichmentService(
        t.app.ctx.database.db,
        t.clock,
        { wayback, moz: undefined, majestic: undefined },
        new MemorySnapshots({}),
        ['com'],
      );
      const result = await failing.enrichDue(100);
      assert.equal(result.deferred, 1);
      assert.match(result.errors[0]!, /wayback: HTTP 404/);
      const later = await row('later.com');
      assert.equal(later.first_archived_at, null);
      assert.equal(later.enrich_due_at, t.clock.now() + 3_600_000);
    });

    it('imports a metrics CSV all or nothing', async () => {
      const enrichment = service(false);
      const csv = 'domain,da,tf\nVintage.com,12,7\nnew-one.org,,\n';
      assert.deepEqual(await enrichment.importMetricsCsv(Readable.from([csv])), { rows: 2, feedRows: 1 });
      const vintage = await row('vintage.com');
      assert.deepEqual([vintage.da, vintage.tf], [12, 7]);

      const bad = 'domain,da,tf\nvintage.com,99,1\nnot a domain,1,1\nok.com,101,1\n';
      await assert.rejects(enrichment.importMetricsCsv(Readable.from([bad])), (error: unknown) => {
        assert.ok(error instanceof MetricsCsvError);
        assert.deepEqual(
          error.problems.map((problem) => problem.line),
          [3, 4],
        );
        return true;
      });
      assert.equal((await row('vintage.com')).da, 12, 'nothing of a bad file is written');
      await assert.rejects(
        enrichment.importMetricsCsv(Readable.from(['name,da\nx.com,1\n'])),
        /missing column\(s\): domain, tf/,
      );
      await assert.rejects(enrichment.importMetricsCsv(Readable.from(['domain,da,tf\n"a.com,1,1\n'])), MetricsCsvError);
    });
  });
}
