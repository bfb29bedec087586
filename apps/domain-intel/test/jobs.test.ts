import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, redisTargets, tempDir } from '@repo/server-kit/testing';
import { Command } from 'commander';
import { registerEnrichCommands } from '../src/cli/enrich-commands.ts';
import { registerJobsCommands } from '../src/cli/jobs-commands.ts';
import { enqueueJob, queuePrefix, startBullmqWorker } from '../src/jobs/bullmq.ts';
import { startInProcessScheduler } from '../src/jobs/in-process-scheduler.ts';
import { JobLeases, runLeased } from '../src/jobs/lease.ts';
import { runJob } from '../src/jobs/pipeline.ts';
import { schedulerMode } from '../src/jobs/scheduler-plugin.ts';
import { feedRow } from './feed-helpers.ts';
import { createTestApp, type TestApp } from './helpers.ts';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

describe('scheduler mode', () => {
  it('runs jobs in-process by default, on BullMQ with Redis, never by itself in tests', () => {
    const mode = (
      JOBS_SCHEDULER: 'auto' | 'off' | 'in-process' | 'bullmq',
      NODE_ENV: 'development' | 'test',
      REDIS_URL?: string,
      REDIS_CLUSTER_URLS?: string[],
    ) => schedulerMode({ JOBS_SCHEDULER, NODE_ENV, REDIS_URL, REDIS_CLUSTER_URLS });
    assert.equal(mode('auto', 'development'), 'in-process');
    assert.equal(mode('auto', 'development', 'redis://x'), 'bullmq');
    assert.equal(mode('auto', 'development', undefined, ['redis://x:7000']), 'bullmq');
    assert.equal(mode('auto', 'test'), 'off');
    assert.equal(mode('in-process', 'test', 'redis://x'), 'in-process');
  });
});

for (const target of databaseTargets()) {
  describe(`jobs (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target, env: { TRACKED_TLDS: 'com' } });
    });
    after(async () => t.close());

    it('the in-process scheduler fires daily at 06:00 UTC and hourly at :30, and stops', async () => {
      const scheduler = startInProcessScheduler(t.app.ctx, { info() {}, error() {} });
      const next = scheduler.nextRuns();
      assert.equal(next.daily?.toISOString().slice(11, 19), '06:00:00');
      assert.equal(next.hourly?.toISOString().slice(14, 19), '30:00');
      assert.equal(Number(next.watchlist?.toISOString().slice(14, 16)) % 5, 0, 'the watchlist every 5 minutes');
      assert.equal(Number(next['bulk-checks']?.toISOString().slice(17, 19)) % 5, 0, 'bulk checks every 5 seconds');
      scheduler.stop();
      assert.deepEqual(scheduler.nextRuns(), {
        daily: null,
        hourly: null,
        deliveries: null,
        watchlist: null,
        'bulk-checks': null,
      });
    });

    it('a lease is held by one process at a time, and taken over once it expires', async () => {
      const first = new JobLeases(t.app.ctx.database.db, t.clock);
      const second = new JobLeases(t.app.ctx.database.db, t.clock);
      assert.equal(await first.tryAcquire('demo', 60_000), true);
      assert.equal(await second.tryAcquire('demo', 60_000), false);
      assert.equal(await first.tryAcquire('demo', 60_000), false, 'not re-entrant either');
      t.clock.advance(60_001);
      assert.equal(await second.tryAcquire('demo', 60_000), true);
      await second.release('demo');
      assert.equal(await first.tryAcquire('demo', 60_000), true);
      await first.release('demo');
    });

    it('runJob skips a job another process is running, and runs it once the lease is free', async () => {
      const other = new JobLeases(t.app.ctx.database.db, t.clock);
      let outcome: Awaited<ReturnType<typeof runJob>> | undefined;
      await runLeased(other, 'pipeline:hourly', 60_000, async () => {
        outcome = await runJob(t.app.ctx, 'hourly');
      });
      assert.equal(outcome?.status, 'skipped');
      assert.equal(outcome?.status === 'skipped' && outcome.heldBy, other.owner);
      const free = await runJob(t.app.ctx, 'hourly');
      assert.equal(free.status, 'completed');
    });

    it('CLI: pipeline hourly prints a summary; metrics import reports bad files and imports good ones', async () => {
      const stdout = new Capture();
      const stderr = new Capture();
      const program = new Command().exitOverride();
      registerJobsCommands(program, async () => t.app.ctx, { stdout, stderr });
      registerEnrichCommands(program, async () => t.app.ctx, { stdout, stderr });
      await program.parseAsync(['node', 'domain-intel', 'pipeline', 'hourly']);
      assert.match(stdout.text, /RDAP re-checks: 0 checked/);
      assert.match(stdout.text, /Enrichment: 0 rows enriched/);

      await t.app.ctx.database.db.insertInto('feed_domains').values(feedRow('csvname.com')).execute();
      const files = tempDir('csv');
      try {
        const good = path.join(files.dir, 'good.csv');
        writeFileSync(good, 'domain,da,tf\ncsvname.com,44,21\n');
        await program.parseAsync(['node', 'domain-intel', 'metrics', 'import', '--file', good]);
        assert.match(stdout.text, /Imported metrics of 1 domains \(1 of them in the feed now\)/);
        const bad = path.join(files.dir, 'bad.csv');
        writeFileSync(bad, 'domain,da,tf\ncsvname.com,444,21\n');
        await program.parseAsync(['node', 'domain-intel', 'metrics', 'import', '--file', bad]);
        assert.match(stderr.text, /line 2: da must be a whole number from 0 to 100/);
        assert.match(stderr.text, /Nothing was imported/);
        assert.equal(process.exitCode, 1);
        process.exitCode = 0;
        await program.parseAsync([
          'node',
          'domain-intel',
          'metrics',
          'import',
          '--file',
          path.join(files.dir, 'none.csv'),
        ]);
        assert.match(stderr.text, /Cannot read .*none\.csv/);
        process.exitCode = 0;
      } finally {
        files.remove();
      }
      const row = await t.app.ctx.database.db
        .selectFrom('feed_domains')
        .select(['da', 'tf'])
        .where('domain', '=', 'csvname.com')
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { da: 44, tf: 21 });
    });

    it('CLI: a malformed --date is refused before anything runs', async () => {
      const program = new Command().exitOverride().configureOutput({ writeErr: () => {} });
      registerJobsCommands(program, async () => t.app.ctx, { stdout: new Capture(), stderr: new Capture() });
      await assert.rejects(
        program.parseAsync(['node', 'domain-intel', 'pipeline', 'daily', '--date', '2026-02-30']),
        /not a valid date/,
      );
    });
  });
}

for (const kind of redisTargets()) {
  describe(`BullMQ worker (${kind.name})`, { skip: kind.skip }, () => {
    it('runs queued hourly, deliveries and watchlist jobs through the same job functions', async () => {
      const [sqlite] = databaseTargets();
      const cluster = kind.name === 'redis-cluster';
      const t = await createTestApp({
        target: sqlite!,
        redis: cluster ? 'cluster' : true,
        env: { TRACKED_TLDS: 'com' },
      });
      // BullMQ's keys under a test prefix of their own (`<prefix>:<queue>:…`), removed afterwards;
      // on a Cluster in braces, as the worker's own prefix is (one hash slot for the queue's keys).
      const bullKeys = await kind.provision();
      const prefix = cluster ? `{${bullKeys.keyPrefix.slice(0, -1)}}` : bullKeys.keyPrefix.slice(0, -1);
      if (cluster) assert.equal(queuePrefix(t.config), `{${t.config.REDIS_KEY_PREFIX}bull}`);
      const lines: string[] = [];
      const worker = await startBullmqWorker(
        t.app.ctx,
        { info: (message) => lines.push(message), error: (_error, message) => lines.push(`error: ${message}`) },
        { prefix },
      );
      try {
        for (const name of ['hourly', 'deliveries', 'watchlist'] as const) {
          await enqueueJob(t.app.ctx, name, { prefix });
          for (let i = 0; i < 200 && !lines.some((line) => line.startsWith(name)); i += 1) {
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          assert.ok(lines.includes(`${name} pipeline finished`), lines.join('\n'));
        }
      } finally {
        await worker.close();
        await t.close();
        await bullKeys.cleanup();
      }
    });
  });
}
