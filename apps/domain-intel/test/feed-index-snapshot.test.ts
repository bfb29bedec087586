import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FeedPage } from '@repo/feed-index';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets, testTimeout, waitForLine } from '@repo/server-kit/testing';
import type { KyselyPlugin } from 'kysely';
import { FeedIndexStore } from '../src/feed/feed-index-store.ts';
import { FeedService } from '../src/feed/feed-service.ts';
import { EVERY_ROW, feedRow } from './feed-helpers.ts';
import { childEnv, createTestApp, type TestApp } from './helpers.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const PAGE: FeedPage = { sort: 'da', limit: 20, offset: 0 };

/** Counts the SQL `count(…)` queries a service issues (the SQL path's total): none when the index answers. */
function countingCounts(): { plugin: KyselyPlugin; counts: () => number } {
  let counts = 0;
  return {
    plugin: {
      transformQuery: ({ node }) => {
        if (JSON.stringify(node).includes('"func":"count"')) counts++;
        return node;
      },
      transformResult: async ({ result }) => result,
    },
    counts: () => counts,
  };
}

for (const target of databaseTargets()) {
  describe(`feed index snapshots shared by the processes of a host (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let dir: string;
    const events: string[] = [];

    before(async () => {
      t = await createTestApp({ target });
      dir = mkdtempSync(path.join(tmpdir(), 'feed-index-dir-'));
      const rows = Array.from({ length: 300 }, (_, i) =>
        feedRow(`s${(i * 7919) % 300}${i % 4 === 0 ? '-x' : ''}.${['com', 'net', 'org'][i % 3]}`, {
          da: i % 6 === 0 ? null : i % 97,
          tf: i % 5 === 0 ? null : i % 41,
          alt_tld_count: i % 3,
          dropped_at: i % 10 === 0 ? null : NOW - (i % 40) * DAY,
        }),
      );
      await t.app.ctx.database.db.insertInto('feed_domains').values(rows).execute();
    });
    after(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** A FeedService as an API process has it, on the shared directory; `name` tags its events. */
    const service = (name: string, options: { retentionDays?: number } = {}) => {
      const counting = countingCounts();
      const feed = new FeedService(
        t.app.ctx.database.db.withPlugin(counting.plugin),
        t.app.ctx.database.dialect,
        new ManualClock(NOW),
        {
          countCacheSeconds: 0,
          index: 'memory',
          indexCheckSeconds: 0,
          indexStaleSeconds: 600,
          indexRetentionDays: options.retentionDays,
          snapshots: new FeedIndexStore(dir, {
            database: t.app.ctx.database.location,
            retentionDays: options.retentionDays ?? 0,
            maxRows: 0,
            maxMb: 0,
          }),
          onIndexReady: (version, from) => events.push(`${name} ${'built' in from ? 'built' : 'mapped'} v${version}`),
          onSnapshotError: (error, version) =>
            events.push(`${name} refused v${version}: ${(error as { problem?: string }).problem ?? error}`),
          onIndexError: (error) => events.push(`${name} failed: ${error}`),
        },
      );
      return { feed, counts: counting.counts };
    };
    /** The SQL path's answer, counted afresh (no reused total). */
    const sqlAnswer = async (filters = EVERY_ROW) => {
      const sql = new FeedService(t.app.ctx.database.db, t.app.ctx.database.dialect, new ManualClock(NOW), {
        countCacheSeconds: 0,
        index: 'off',
        indexCheckSeconds: 0,
      });
      const { records, total } = await sql.list(filters, PAGE);
      return { domains: records.map((record) => record.domain), total };
    };
    const answer = async (feed: FeedService, filters = EVERY_ROW) => {
      const { records, total } = await feed.list(filters, PAGE);
      return { domains: records.map((record) => record.domain), total };
    };
    const snapshots = () => readdirSync(dir).filter((name) => name.endsWith('.snapshot'));
    const mappedHere = (file: string) =>
      readFileSync('/proc/self/maps', 'utf8')
        .split('\n')
        .some((line) => line.endsWith(file) && line.split(/\s+/)[1] === 'r--s');
    /** Asks until `feed` answers from a mapped snapshot (it looks at every call: indexCheckSeconds 0). */
    const untilMapped = async (feed: FeedService, name: string, version: number) => {
      const deadline = Date.now() + testTimeout(30_000);
      while (!events.includes(`${name} mapped v${version}`)) {
        assert.ok(Date.now() < deadline, `${name} mapped v${version}: ${events.join('; ')}`);
        await answer(feed);
        await sleep(20);
      }
    };

    test('two processes on one directory: one builds, both answer from the same mapped file', async () => {
      events.length = 0;
      const a = service('a');
      const b = service('b');
      const expected = await sqlAnswer();
      // Both start at once: a takes the build lock; b answers from SQL meanwhile, then maps a's file.
      assert.deepEqual(await answer(a.feed), expected);
      assert.deepEqual(await answer(b.feed), expected);
      assert.ok(await a.feed.index());
      await untilMapped(b.feed, 'b', 0);
      assert.deepEqual(
        events.filter((event) => event.includes('built')),
        ['a built v0'],
        'exactly one build',
      );
      const [file] = snapshots();
      assert.ok(file, 'one snapshot written');
      assert.ok(mappedHere(path.join(dir, file)), 'the snapshot is mapped');
      const countsBefore = a.counts() + b.counts();
      for (const filters of [EVERY_ROW, { ...EVERY_ROW, tlds: ['net'], minDa: 30 }, { ...EVERY_ROW, contains: 'x' }]) {
        const sql = await sqlAnswer(filters);
        assert.deepEqual(await answer(a.feed, filters), sql);
        assert.deepEqual(await answer(b.feed, filters), sql);
      }
      assert.equal(a.counts() + b.counts(), countsBefore, 'both answered from the index: no SQL count');
    });

    test('two real processes on one directory: one builds, the other maps its file; both list it in /proc/<pid>/maps', async () => {
      const shared = mkdtempSync(path.join(tmpdir(), 'feed-index-processes-'));
      const serve = () =>
        spawn(
          process.execPath,
          ['--import', 'tsx', path.join(import.meta.dirname, 'processes', 'serve-feed-index.ts')],
          {
            env: { ...childEnv(t), FEED_INDEX_DIR: shared },
            stdio: ['pipe', 'pipe', 'inherit'],
          },
        );
      const processes = [serve(), serve()];
      try {
        const ready = await Promise.all(
          processes.map(
            async (child) =>
              JSON.parse((await waitForLine(child, /^READY /)).slice('READY '.length)) as {
                built?: boolean;
                mapped?: string;
                total: number;
              },
          ),
        );
        assert.deepEqual(ready.map((answer) => (answer.built ? 'built' : 'mapped')).sort(), ['built', 'mapped']);
        const file = ready.find((answer) => answer.mapped)!.mapped!;
        for (const child of processes) {
          const maps = readFileSync(`/proc/${child.pid}/maps`, 'utf8').split('\n');
          assert.ok(
            maps.some((line) => line.endsWith(file) && line.split(/\s+/)[1] === 'r--s'),
            `process ${child.pid} maps ${file}`,
          );
        }
        const { total } = await sqlAnswer();
        assert.deepEqual(
          ready.map((answer) => answer.total),
          [total, total],
        );
      } finally {
        await Promise.all(
          processes.map(
            (child) =>
              new Promise((resolve) => {
                if (child.exitCode !== null) return resolve(null);
                child.once('exit', resolve);
                child.stdin!.end();
              }),
          ),
        );
        rmSync(shared, { recursive: true, force: true });
      }
    });

    test('a process started with the current snapshot answers its first page from it: no build, no SQL count', async () => {
      events.length = 0;
      const c = service('c');
      assert.deepEqual(await answer(c.feed), await sqlAnswer());
      assert.deepEqual(events, ['c mapped v0']);
      assert.equal(c.counts(), 0);
    });

    test('other settings (a retention) keep snapshots of their own', async () => {
      events.length = 0;
      const retained = service('r', { retentionDays: 10 });
      assert.ok(await retained.feed.index());
      assert.deepEqual(events, ['r built v0']);
      assert.equal(snapshots().length, 2);
      const recent = { ...EVERY_ROW, droppedAfter: NOW - 5 * DAY };
      assert.deepEqual(await answer(retained.feed, recent), await sqlAnswer(recent));
      const started = service('r2', { retentionDays: 10 });
      assert.deepEqual(await answer(started.feed, recent), await sqlAnswer(recent));
      assert.equal(started.counts(), 0, 'answered from the mapped index');
      assert.deepEqual(await answer(started.feed), await sqlAnswer(), 'older drops: SQL (covers)');
      assert.equal(started.counts(), 1);
    });

    test('a torn or foreign snapshot is refused and reported; the process builds and replaces it', async () => {
      for (const damage of ['torn', 'foreign'] as const) {
        events.length = 0;
        const store = new FeedIndexStore(dir, {
          database: t.app.ctx.database.location,
          retentionDays: 0,
          maxRows: 0,
          maxMb: 0,
        });
        const current = store.fileOf(0);
        if (damage === 'torn') truncateSync(current, readFileSync(current).length - 100);
        else writeFileSync(current, 'not a snapshot at all\n'.repeat(10));
        const d = service('d');
        assert.deepEqual(await answer(d.feed), await sqlAnswer(), 'SQL answers meanwhile');
        assert.ok(await d.feed.index());
        assert.deepEqual(events, [`d refused v0: ${damage === 'torn' ? 'length' : 'not-this-format'}`, 'd built v0']);
        assert.ok(store.map(0, { cachedFilters: 0 }), 'a whole snapshot replaced it');
      }
    });

    test('a lock left by a process that died is taken over', async () => {
      events.length = 0;
      const dead = spawnSync(process.execPath, ['-e', '']).pid!;
      writeFileSync(path.join(dir, 'build.lock'), `${dead}\n`);
      const store = new FeedIndexStore(dir, {
        database: t.app.ctx.database.location,
        retentionDays: 0,
        maxRows: 0,
        maxMb: 0,
      });
      rmSync(store.fileOf(0));
      const e = service('e');
      await answer(e.feed);
      assert.ok(await e.feed.index());
      assert.deepEqual(events, ['e built v0']);
      assert.deepEqual(readdirSync(dir).includes('build.lock'), false, 'released');
    });

    test('a feed version change: a new snapshot, the old one removed; a process starting meanwhile answers from the old one', async () => {
      events.length = 0;
      const db = t.app.ctx.database.db;
      const before = await sqlAnswer();
      await db
        .insertInto('feed_domains')
        .values(feedRow('zz-new.com', { da: 99 }))
        .execute();
      await db
        .updateTable('feed_version')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('id', '=', 1)
        .execute();
      const after = await sqlAnswer();
      assert.notDeepEqual(after, before);
      // A process starting before anyone built version 1 maps version 0 as the previous index (the stale window).
      const f = service('f');
      // Lock taken by another process of the host: f cannot build, so it keeps answering from the old snapshot.
      const holder = new FeedIndexStore(dir, { database: 'elsewhere', retentionDays: 0, maxRows: 0, maxMb: 0 });
      assert.ok(holder.tryLock());
      try {
        assert.deepEqual(await answer(f.feed), before, 'the previous version answers at start');
        assert.equal(f.counts(), 0, 'not SQL');
      } finally {
        holder.unlock();
      }
      const g = service('g');
      assert.deepEqual(await answer(g.feed), before);
      assert.ok(await g.feed.index());
      assert.deepEqual(await answer(g.feed), after);
      await untilMapped(f.feed, 'f', 1);
      assert.deepEqual(await answer(f.feed), after);
      const store = new FeedIndexStore(dir, {
        database: t.app.ctx.database.location,
        retentionDays: 0,
        maxRows: 0,
        maxMb: 0,
      });
      assert.deepEqual(
        snapshots().sort(),
        [path.basename(store.fileOf(1))],
        'older versions removed (of every setting)',
      );
      assert.deepEqual(
        events.filter((event) => event.includes('built')),
        ['g built v1'],
      );
    });
  });
}
