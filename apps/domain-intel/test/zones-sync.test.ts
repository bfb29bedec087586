import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets, type ProvisionedDatabase } from '@repo/server-kit/testing';
import { renderZoneFile, SimWorld, startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { loadDomainIntelConfig } from '../src/config.ts';
import { type AppContext, createContext } from '../src/context.ts';
import { diffSnapshots, type NameChange } from '../src/zones/index.ts';

const DAY = 86_400_000;

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

const delegated = (world: SimWorld, tld: string) =>
  [...world.inTld(tld)]
    .filter((domain) => domain.inZone)
    .map((domain) => domain.name)
    .sort();

for (const target of databaseTargets()) {
  describe(`zones sync and import (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let provisioned: ProvisionedDatabase;
    let ctx: AppContext;
    let clock: ManualClock;

    before(async () => {
      sim = await startUpstreamSim({ world: new SimWorld('2026-03-10T05:00:00Z') });
      for (let i = 0; i < 40; i++) sim.world.register(`name${i}.com`);
      for (let i = 0; i < 10; i++) sim.world.register(`site${i}.net`);
    });
    after(() => sim.close());

    beforeEach(async () => {
      await ctx?.close();
      await provisioned?.cleanup();
      provisioned = await target.provision();
      clock = new ManualClock('2026-03-10T06:00:00Z');
      sim.world.setNow('2026-03-10T05:00:00Z');
      const config = loadDomainIntelConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: provisioned.dataDir,
        ...(provisioned.databaseUrl ? { DATABASE_URL: provisioned.databaseUrl } : {}),
        CZDS_AUTH_URL: `${sim.url}/czds-auth`,
        CZDS_API_URL: sim.url,
        CZDS_USERNAME: sim.czds.username,
        CZDS_PASSWORD: sim.czds.password,
        CZDS_RETRY_DELAY_MS: '5',
        ZONE_SORT_CHUNK_NAMES: '1000',
      });
      ctx = await createContext(config, { clock, postgresSchema: provisioned.postgresSchema });
    });
    after(async () => {
      await ctx?.close();
      await provisioned?.cleanup();
    });

    const downloads = (tld: string) => sim.czds.counts.downloads.get(tld) ?? 0;

    it('downloads, imports and snapshots a zone; the same day again is a no-op', async () => {
      const before = { auth: sim.czds.counts.authentications, com: downloads('com') };
      const result = await ctx.zones.syncTld('com', '2026-03-10');
      assert.deepEqual(result, { tld: 'com', date: '2026-03-10', names: 40, status: 'imported' });
      assert.deepEqual(await collect(ctx.snapshots.read('com', '2026-03-10')), delegated(sim.world, 'com'));

      await ctx.zones.syncTld('net', '2026-03-10');
      assert.equal(sim.czds.counts.authentications, before.auth + 1, 'one token for both downloads');

      const again = await ctx.zones.syncTld('com', '2026-03-10');
      assert.equal(again.status, 'already_imported');
      assert.equal(again.names, 40);
      assert.equal(downloads('com'), before.com + 1, 'no second download');
      assert.deepEqual(readdirSync(path.join(provisioned.dataDir, 'zones', 'downloads', 'com')), []);
    });

    it('downloads a TLD at most once per 24 h, and diffs consecutive days', async () => {
      await ctx.zones.syncTld('com', '2026-03-10');
      sim.world.get('name3.com')!.inZone = false;
      sim.world.register('fresh.com');
      sim.world.advance(DAY);

      // Yesterday's download started at 06:00; today's run may start from 05:50 (scheduler slack).
      clock.advance(DAY - 11 * 60_000);
      await assert.rejects(ctx.zones.syncTld('com', '2026-03-11'), {
        code: 'czds_download_limit',
        message: /next at 2026-03-11T05:50:00\.000Z/,
      });
      clock.advance(60_000);
      const next = await ctx.zones.syncTld('com', '2026-03-11');
      assert.equal(next.names, 40);
      const changes = await collect(diffSnapshots(ctx.snapshots, 'com', '2026-03-10', '2026-03-11'));
      assert.deepEqual(changes, [
        { name: 'fresh.com', change: 'added' },
        { name: 'name3.com', change: 'removed' },
      ] satisfies NameChange[]);
      sim.world.get('name3.com')!.inZone = true;
      sim.world.purge('fresh.com');
    });

    it('resumes an interrupted download and reports an approved-zone miss clearly', async () => {
      sim.czds.failNextDownloads({ kind: 'interrupt', afterBytes: 100 }, { kind: 'status', status: 503 });
      const result = await ctx.zones.syncTld('com', '2026-03-10');
      assert.equal(result.names, 40);
      await assert.rejects(ctx.zones.syncTld('museum', '2026-03-10'), { code: 'czds_zone_not_approved' });
    });

    for (const fault of [
      { kind: 'corrupt', code: 'zone_file_corrupt' },
      { kind: 'truncate', keepBytes: 300, code: 'zone_file_truncated' },
    ] as const) {
      it(`a ${fault.kind} download fails clearly and leaves the previous snapshot alone`, async () => {
        await ctx.zones.syncTld('com', '2026-03-10');
        sim.world.advance(DAY);
        clock.advance(DAY);
        sim.czds.failNextDownloads(fault);
        await assert.rejects(ctx.zones.syncTld('com', '2026-03-11'), (error: { code?: string }) =>
          [fault.code, 'zone_file_invalid', 'zone_file_truncated', 'zone_file_corrupt'].includes(error.code ?? ''),
        );
        assert.deepEqual(await ctx.snapshots.dates('com'), ['2026-03-10']);
        assert.deepEqual(readdirSync(path.join(provisioned.dataDir, 'zones', 'snapshots', 'com')), [
          '2026-03-10.txt.gz',
        ]);
        assert.deepEqual(readdirSync(path.join(provisioned.dataDir, 'zones', 'downloads', 'com')), []);
      });
    }

    it('an import interrupted after the download completes on the next run without downloading again', async () => {
      // What a crash leaves: the zone file downloaded and recorded, no snapshot yet.
      const file = path.join(provisioned.dataDir, 'zones', 'downloads', 'com', '2026-03-10.zone.gz');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, gzipSync(renderZoneFile(sim.world, 'com', '2026-03-10')));
      const before = downloads('com');
      const result = await ctx.zones.syncTld('com', '2026-03-10');
      assert.equal(result.status, 'imported');
      assert.equal(result.names, 40);
      assert.equal(downloads('com'), before);
      assert.equal(existsSync(file), false);
    });

    it('a crash between publishing the file and recording it is repaired on the re-run', async () => {
      await ctx.zones.syncTld('com', '2026-03-10');
      await ctx.database.db.deleteFrom('zone_snapshots').execute();
      const result = await ctx.zones.syncTld('com', '2026-03-10');
      assert.deepEqual(result, { tld: 'com', date: '2026-03-10', names: 40, status: 'already_imported' });
      const row = await ctx.database.db.selectFrom('zone_snapshots').selectAll().executeTakeFirstOrThrow();
      assert.equal(Number(row.names), 40);
    });

    it('imports a large unsorted local file through the external sort', async () => {
      const world = new SimWorld('2026-03-10T00:00:00Z');
      for (let i = 0; i < 2_500; i++)
        world.register(`bulk${i}.org`, { nameservers: ['ns1.dns.example', 'ns2.dns.example'] });
      const file = path.join(provisioned.dataDir, 'org.zone');
      writeFileSync(file, renderZoneFile(world, 'org', '2026-03-10'));
      const result = await ctx.zones.importZoneFile({ tld: 'ORG', file, date: '2026-03-10' });
      assert.equal(result.names, 2_500);
      const names = await collect(ctx.snapshots.read('org', '2026-03-10'));
      assert.deepEqual(names, delegated(world, 'org'));
      assert.deepEqual(readdirSync(path.join(provisioned.dataDir, 'zones', 'tmp')), [], 'sort runs removed');

      // A file that lost most of the zone is refused as incomplete.
      const shrunk = new SimWorld('2026-03-11T00:00:00Z');
      for (let i = 0; i < 100; i++) shrunk.register(`bulk${i}.org`);
      writeFileSync(file, renderZoneFile(shrunk, 'org', '2026-03-11'));
      await assert.rejects(ctx.zones.importZoneFile({ tld: 'org', file, date: '2026-03-11' }), {
        code: 'zone_shrunk_too_much',
      });
      assert.deepEqual(await ctx.snapshots.dates('org'), ['2026-03-10']);
    });

    it('answers clear errors for bad input', async () => {
      await assert.rejects(ctx.zones.importZoneFile({ tld: 'com', file: '/no/such/file', date: '2026-03-10' }), {
        code: 'zone_file_not_found',
      });
      await assert.rejects(ctx.zones.importZoneFile({ tld: 'c o m', file: '/x', date: '2026-03-10' }), {
        code: 'invalid_tld',
      });
      await assert.rejects(ctx.zones.syncTld('com', '10/03/2026'), { code: 'invalid_date' });
    });
  });
}
