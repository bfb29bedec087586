import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { createDatabase } from '../src/database.ts';
import { checkpointOnceListening, startBackgroundCheckpoints } from '../src/sqlite-checkpoints.ts';
import { readProcStat, tempDir, testTimeout } from '../src/testing/index.ts';

/** Rows of `notes` in the database file alone, as if the WAL were gone: what checkpoints have copied there. */
function rowsInDatabaseFile(file: string, dir: string): number {
  const copy = path.join(dir, 'copy.sqlite');
  copyFileSync(file, copy);
  const connection = new SQLite(copy, { readonly: true });
  try {
    return (connection.prepare('select count(*) as n from notes').get() as { n: number }).n;
  } catch {
    return 0; // Not checkpointed yet: the file has no `notes` table (or is empty).
  } finally {
    connection.close();
  }
}

/** The nice value of a thread of this process; NaN once it has ended. */
const niceOf = (tid: string | number) => readProcStat(`/proc/self/task/${tid}/stat`)?.nice ?? Number.NaN;

/** How many threads of this process run at nice 19. */
const threadsAtNice19 = () => readdirSync('/proc/self/task').filter((tid) => niceOf(tid) === 19).length;

describe('SQLite checkpoints in the background', () => {
  const temp = tempDir('sqlite-checkpoints');
  after(() => temp.remove());

  it('copies the commits into the database file with no commit doing it, and the last close removes the WAL', async () => {
    const database = createDatabase<{ notes: { id: number } }>({ dataDir: temp.dir, sqliteFile: 'notes.sqlite' });
    const errors: unknown[] = [];
    database.checkpointInBackground((error) => errors.push(error));
    await sql`create table notes (id integer primary key)`.execute(database.db);
    // 20 one-row commits: a few WAL pages, far below the 1,000 at which a commit checkpoints by default.
    for (let id = 1; id <= 20; id++) await database.db.insertInto('notes').values({ id }).execute();
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
    assert.equal(rows[0]?.wal_autocheckpoint, 10_000, 'the serving connection checkpoints only as a backstop');

    const deadline = Date.now() + testTimeout(10_000);
    while (rowsInDatabaseFile(database.location, temp.dir) < 20 && Date.now() < deadline) await sleep(50);
    assert.equal(rowsInDatabaseFile(database.location, temp.dir), 20, 'the thread checkpointed the 20 commits');
    assert.deepEqual(errors, []);

    await database.close();
    assert.equal(existsSync(`${database.location}-wal`), false, "the thread's connection closed first");
  });

  it('runs the checkpoints at the lowest priority on Linux, and the serving thread at its own', {
    skip: process.platform === 'linux' ? false : 'nice values are per thread only on Linux',
  }, async () => {
    const database = createDatabase<{ notes: { id: number } }>({ dataDir: temp.dir, sqliteFile: 'nice.sqlite' });
    const mainThreadNice = niceOf(process.pid);
    const before = threadsAtNice19();
    const errors: unknown[] = [];
    database.checkpointInBackground((error) => errors.push(error));
    try {
      const deadline = Date.now() + testTimeout(10_000);
      while (threadsAtNice19() === before && Date.now() < deadline) await sleep(20);
      assert.equal(threadsAtNice19(), before + 1, 'one more thread at nice 19');
      assert.equal(niceOf(process.pid), mainThreadNice, 'the main thread keeps its priority');
      assert.deepEqual(errors, []);
    } finally {
      await database.close();
    }
  });

  it('reports a thread that cannot checkpoint once, and the connection checkpoints itself again', async () => {
    const connection = new SQLite(path.join(temp.dir, 'alone.sqlite'));
    connection.pragma('journal_mode = WAL');
    const reported: unknown[] = [];
    const stopped = new Promise<void>((resolve) => {
      const checkpoints = startBackgroundCheckpoints(
        connection,
        path.join(temp.dir, 'missing', 'x.sqlite'),
        (error) => {
          reported.push(error);
          void checkpoints.close().then(resolve);
        },
      );
    });
    // The thread does not keep a process alive (a server's sockets do): this test's timer does.
    const alive = setInterval(() => {}, 1_000);
    await stopped.finally(() => clearInterval(alive));
    assert.equal(reported.length, 1);
    assert.match(String(reported[0]), /directory does not exist/);
    assert.equal(connection.pragma('wal_autocheckpoint', { simple: true }), 1_000);
    connection.close();
  });

  it('starts when the server listens, not when it only answers injected requests', async () => {
    let started = 0;
    const app = Fastify();
    checkpointOnceListening(app, { checkpointInBackground: () => started++ });
    app.get('/', async () => 'ok');
    assert.equal((await app.inject('/')).body, 'ok');
    assert.equal(started, 0, 'tests and CLI commands never listen: no thread');
    await app.listen({ host: '127.0.0.1', port: 0 });
    await app.close();
    assert.equal(started, 1);
  });
});
