import assert from 'node:assert/strict';
import { readdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { tempDir } from '@repo/server-kit/testing';
import fc from 'fast-check';
import Fastify from 'fastify';
import type { AppContext } from '../src/context.ts';
import { BlockCache } from '../src/zone-index/block-cache.ts';
import { IndexFile } from '../src/zone-index/index-reader.ts';
import { writeIndexFile } from '../src/zone-index/index-writer.ts';
import { zoneIndexRefresher } from '../src/zone-index/refresh-plugin.ts';
import { ZoneIndex } from '../src/zone-index/zone-index.ts';
import type { SnapshotStore } from '../src/zones/snapshot-store.ts';
import { ArraySnapshots, snapshotOrder } from './zone-index-helpers.ts';

async function buildFile(names: string[], tld = 'com', blockSize = 256) {
  const temp = tempDir('zidx');
  const file = path.join(temp.dir, 'test.zidx');
  const metadata = await writeIndexFile(file, names, { tld, date: '2026-03-10', blockSize });
  const index = await IndexFile.open(file, new BlockCache(1 << 20));
  return {
    index,
    metadata,
    file,
    async close() {
      await index.close();
      temp.remove();
    },
  };
}

const label = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/);

describe('zone index file', () => {
  it('finds exactly the names of the snapshot, including prefixes and hyphen/dot order neighbours', async () => {
    const names = snapshotOrder(['a.com', 'a-b.com', 'ab.com', 'abc.com', 'b.com', 'xn--caf-dma.com', 'zz9.com']);
    const built = await buildFile(names);
    try {
      for (const name of names) assert.equal(await built.index.has(name.slice(0, -4)), true, name);
      // 'š' is U+0161: one byte per character would turn it into 'a'; 'A' is not a zone label.
      for (const absent of [
        '',
        'a-',
        'aa',
        'abcd',
        'abd',
        'c',
        'xn--caf',
        'zz',
        'zz99',
        '0',
        'a'.repeat(70),
        'š',
        'A',
      ]) {
        assert.equal(await built.index.has(absent), false, absent);
      }
      assert.equal(built.metadata.names, names.length);
    } finally {
      await built.close();
    }
  });

  it('answers like a Set for random snapshots spread over many blocks (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(label, { minLength: 0, maxLength: 400 }),
        fc.array(label),
        async (labels, probes) => {
          const built = await buildFile(snapshotOrder(labels.map((l) => `${l}.com`)));
          try {
            const set = new Set(labels);
            for (const probe of [...probes, ...labels])
              assert.equal(await built.index.has(probe), set.has(probe), probe);
          } finally {
            await built.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('skips names that are not second-level names of the TLD and tolerates duplicates', async () => {
    const built = await buildFile(['a.com', 'a.com', 'b.net', 'c.com', 'sub.d.com', 'UPPER.com']);
    try {
      assert.equal(built.metadata.names, 2);
      assert.equal(built.metadata.skipped, 3);
      assert.equal(await built.index.has('c'), true);
      assert.equal(await built.index.has('b'), false);
    } finally {
      await built.close();
    }
  });

  it('refuses an unsorted snapshot instead of building an index that would miss names', async () => {
    const temp = tempDir('zidx');
    try {
      await assert.rejects(
        writeIndexFile(path.join(temp.dir, 'x.zidx'), ['b.com', 'a.com'], { tld: 'com', date: '2026-03-10' }),
        /not sorted/,
      );
    } finally {
      temp.remove();
    }
  });

  it('rejects a truncated file with a format error', async () => {
    const built = await buildFile(snapshotOrder(['a.com', 'b.com']));
    try {
      truncateSync(built.file, 20);
      await assert.rejects(IndexFile.open(built.file, new BlockCache(1024)), { name: 'ZoneIndexFormatError' });
    } finally {
      await built.close();
    }
  });
});

describe('ZoneIndex', () => {
  it('builds from the latest snapshot, answers per TLD, and keeps null for TLDs it does not hold', async () => {
    const temp = tempDir('zidx');
    const snapshots = new ArraySnapshots();
    snapshots.put('com', '2026-03-09', ['old.com']);
    snapshots.put('com', '2026-03-10', snapshotOrder(['coffee.com', 'shop.com']));
    snapshots.put('net', '2026-03-10', snapshotOrder(['coffee.net']));
    const options = { directory: temp.dir, tlds: ['com', 'net', 'org'], snapshots, cacheBytes: 1 << 20 };
    const index = await ZoneIndex.open(options);
    try {
      assert.equal(await index.isInZone('coffee.com'), null, 'nothing built yet');
      const outcomes = await index.refresh();
      assert.deepEqual(
        outcomes.map((o) => [o.tld, o.status, o.date]),
        [
          ['com', 'built', '2026-03-10'],
          ['net', 'built', '2026-03-10'],
          ['org', 'no_snapshot', null],
        ],
      );
      assert.equal(await index.isInZone('coffee.com'), true);
      assert.equal(await index.isInZone('Coffee.COM'), true);
      assert.equal(await index.isInZone('old.com'), false);
      assert.equal(await index.isInZone('tea.net'), false);
      assert.equal(await index.isInZone('coffee.org'), null);
      assert.equal(await index.isInZone('coffee.co.uk'), null);
      assert.deepEqual(await index.tldsWithLabel('coffee'), ['com', 'net']);
      assert.equal((await index.refresh())[0]!.status, 'current');
    } finally {
      await index.close();
      temp.remove();
    }
  });

  it('reopens persisted indexes after a restart without reading snapshots, and swaps in a newer snapshot', async () => {
    const temp = tempDir('zidx');
    const snapshots = new ArraySnapshots();
    snapshots.put('com', '2026-03-10', ['coffee.com']);
    const options = { directory: temp.dir, tlds: ['com'], snapshots, cacheBytes: 1 << 20 };
    const first = await ZoneIndex.open(options);
    await first.refresh();
    await first.close();
    assert.equal(snapshots.reads, 1);

    const second = await ZoneIndex.open(options);
    try {
      assert.equal(await second.isInZone('coffee.com'), true);
      assert.equal((await second.refresh())[0]!.status, 'current');
      assert.equal(snapshots.reads, 1, 'no rebuild after restart');

      snapshots.put('com', '2026-03-11', ['tea.com']);
      assert.equal((await second.refresh())[0]!.status, 'built');
      assert.equal(await second.isInZone('coffee.com'), false);
      assert.equal(await second.isInZone('tea.com'), true);
      assert.deepEqual(readdirSync(temp.dir), ['com.2026-03-11.zidx'], 'old version removed');
    } finally {
      await second.close();
      temp.remove();
    }
  });

  it('keeps serving the previous index when a rebuild fails, and reports the failure', async () => {
    const temp = tempDir('zidx');
    const snapshots = new ArraySnapshots();
    snapshots.put('com', '2026-03-10', ['coffee.com']);
    const index = await ZoneIndex.open({ directory: temp.dir, tlds: ['com'], snapshots, cacheBytes: 1 << 20 });
    try {
      await index.refresh();
      snapshots.putAsIs('com', '2026-03-11', ['b.com', 'a.com']);
      await assert.rejects(index.refresh(), /com: .*not sorted/);
      assert.equal(await index.isInZone('coffee.com'), true);
      assert.deepEqual(readdirSync(temp.dir), ['com.2026-03-10.zidx'], 'no temporary file left');
    } finally {
      await index.close();
      temp.remove();
    }
  });

  it('drops a damaged persisted file at start and rebuilds it on refresh', async () => {
    const temp = tempDir('zidx');
    const snapshots = new ArraySnapshots();
    snapshots.put('com', '2026-03-10', ['coffee.com']);
    writeFileSync(path.join(temp.dir, 'com.2026-03-10.zidx'), 'not an index');
    const index = await ZoneIndex.open({ directory: temp.dir, tlds: ['com'], snapshots, cacheBytes: 1 << 20 });
    try {
      assert.equal(await index.isInZone('coffee.com'), null);
      assert.equal((await index.refresh())[0]!.status, 'built');
      assert.equal(await index.isInZone('coffee.com'), true);
    } finally {
      await index.close();
      temp.remove();
    }
  });

  it('close() stops a build in progress instead of waiting for it, and leaves no temporary file', async () => {
    const temp = tempDir('zidx');
    let started!: () => void;
    const buildStarted = new Promise<void>((resolve) => (started = resolve));
    const endless: SnapshotStore = {
      dates: async () => ['2026-03-10'],
      latestDate: async () => '2026-03-10',
      async *read() {
        for (let i = 0; ; i++) {
          if (i === 100) started();
          yield `n${String(i).padStart(12, '0')}.com`;
        }
      },
    };
    const index = await ZoneIndex.open({ directory: temp.dir, tlds: ['com'], snapshots: endless, cacheBytes: 1 << 20 });
    try {
      const failure = index.refresh().then(
        () => null,
        (error: Error) => error,
      );
      await buildStarted;
      await index.close();
      assert.match(String((await failure)?.message), /com: .*abort/i);
      assert.deepEqual(readdirSync(temp.dir), []);
    } finally {
      temp.remove();
    }
  });

  it('a listening server keeps its index current by itself (the daily job may run elsewhere)', async () => {
    const temp = tempDir('zidx');
    const snapshots = new ArraySnapshots();
    snapshots.put('com', '2026-03-10', ['coffee.com']);
    const zoneIndex = await ZoneIndex.open({ directory: temp.dir, tlds: ['com'], snapshots, cacheBytes: 1 << 20 });
    const app = Fastify();
    app.decorate('ctx', { zoneIndex, config: { ZONE_INDEX_REFRESH_MINUTES: 1 / 6_000 } } as unknown as AppContext);
    await app.register(zoneIndexRefresher);
    try {
      assert.equal(await zoneIndex.isInZone('coffee.com'), null);
      await app.listen({ host: '127.0.0.1', port: 0 });
      while ((await zoneIndex.isInZone('coffee.com')) !== true) await setTimeout(5);
      snapshots.put('com', '2026-03-11', ['tea.com']);
      while ((await zoneIndex.isInZone('tea.com')) !== true) await setTimeout(5);
      assert.equal(await zoneIndex.isInZone('coffee.com'), false);
    } finally {
      await app.close();
      await zoneIndex.close();
      temp.remove();
    }
  });
});
