import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { FEED_SORTS } from '@repo/contracts/domain-intel';
import { FEED_COLUMN_NAMES, FeedColumnChunks, type FeedColumnRow, FeedColumns, FeedIndex } from '@repo/feed-index';
import { tempDir } from '@repo/server-kit/testing';
import { EVERY_ROW, feedRow } from './feed-helpers.ts';

const run = promisify(execFile);
const appDir = path.join(import.meta.dirname, '..');
const NOW = Date.parse('2026-03-10T12:00:00Z');

/** The CLI's bundle (bin/cli-bundle.mjs, `npm run build`), built into a directory of this test's own. */
describe('domain-intel CLI bundle', () => {
  const temp = tempDir('cli-bundle');
  // Inside the app, as dist/ is (the bundle imports its packages from the node_modules above it), under the ignored .tmp/.
  mkdirSync(path.join(appDir, '.tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(appDir, '.tmp', 'cli-bundle-'));
  const bundled = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    run(process.execPath, [path.join(dir, 'cli.js'), ...args], {
      env: { ...process.env, DATA_DIR: temp.dir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent', ...env },
    });
  /** currentCliBundle(dir) as bin/domain-intel.js asks it, in a process of its own. */
  const current = async () => {
    const script = `const { currentCliBundle } = await import(${JSON.stringify(pathToFileURL(path.join(appDir, 'bin', 'cli-bundle.mjs')).href)});
      process.stdout.write(String(currentCliBundle(${JSON.stringify(dir)})));`;
    return (await run(process.execPath, ['--input-type=module', '-e', script])).stdout;
  };

  before(async () => {
    await run(process.execPath, [path.join(appDir, 'bin', 'cli-bundle.mjs'), dir]);
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    temp.remove();
  });

  it('reads files beside its sources, as they do (the version from package.json)', async () => {
    const { version } = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8')) as { version: string };
    assert.equal((await bundled(['--version'])).stdout.trim(), version);
  });

  it('imports a zone through the external sort in its bundled sort worker, and diffs it', async () => {
    const zone = (names: string[]) =>
      `$ORIGIN test.\n@ IN SOA a.nic.test. h.nic.test. 1 2 3 4 5\n${names.map((name) => `${name} IN NS ns1.host.example.`).join('\n')}\n`;
    const first = path.join(temp.dir, 'day1.zone.gz');
    const second = path.join(temp.dir, 'day2.zone');
    // 2,500 names (some twice) in a scrambled order; the next day one fewer and one more.
    const names = Array.from({ length: 2_600 }, (_, i) => `n${(i * 7919) % 2_500}`);
    writeFileSync(first, gzipSync(zone(names)));
    writeFileSync(second, zone([...names.filter((name) => name !== 'n7'), 'zulu']));
    // The smallest sort chunk (1,000 names): the worker spills runs and the importing thread merges them.
    const smallChunks = { ZONE_SORT_CHUNK_NAMES: '1000' };
    const importDay = (file: string, date: string) =>
      bundled(['zones', 'import', '--tld', 'test', '--file', file, '--date', date, '--json'], smallChunks);
    const imported = await importDay(first, '2026-03-09');
    assert.deepEqual(JSON.parse(imported.stdout), {
      tld: 'test',
      date: '2026-03-09',
      names: 2_500,
      status: 'imported',
    });
    await importDay(second, '2026-03-10');
    const diff = await bundled(['zones', 'diff', '--tld', 'test', '--from', '2026-03-09', '--to', '2026-03-10']);
    assert.equal(diff.stdout, '- n7.test\n+ zulu.test\n');
  });

  it('builds the feed index in its bundled worker as the sources do on this thread', async () => {
    const rows: FeedColumnRow[] = Array.from({ length: 300 }, (_, i) => {
      const row = feedRow(`d${(i * 7919) % 300}x${i % 3 === 0 ? '-' : ''}.${['com', 'net', 'org'][i % 3]}`, {
        da: i % 5 === 0 ? null : i % 101,
        tf: i % 7 === 0 ? null : i % 53,
        dropped_at: NOW - (i % 17) * 86_400_000,
      });
      return Object.fromEntries(FEED_COLUMN_NAMES.map((name) => [name, row[name] ?? null])) as unknown as FeedColumnRow;
    }).sort((a, b) => (a.domain < b.domain ? -1 : 1));
    const chunks = new FeedColumnChunks(16);
    for (const row of rows) chunks.append(row);
    const inBundle = await FeedIndex.build(chunks, 0, undefined, {
      entry: pathToFileURL(path.join(dir, 'feed-build-worker-entry.js')),
    });
    const inThread = FeedIndex.fromColumns(FeedColumns.fromRows(rows), 0);
    for (const filter of [EVERY_ROW, { ...EVERY_ROW, tlds: ['net'], minDa: 20 }, { ...EVERY_ROW, contains: 'x-' }]) {
      for (const sort of FEED_SORTS) {
        const page = { sort, limit: 40, offset: 10 };
        assert.deepEqual(inBundle.page(filter, page, NOW), inThread.page(filter, page, NOW), sort);
      }
    }
  });

  it('is run only while every source it was built from is as it was', async () => {
    assert.equal(await current(), pathToFileURL(path.join(dir, 'cli.js')).href);
    const inputsFile = path.join(dir, 'inputs.json');
    const inputs = JSON.parse(readFileSync(inputsFile, 'utf8')) as Record<string, [number, number]>;
    const source = Object.keys(inputs).find((file) => file.startsWith('src/zones/'))!;
    inputs[source] = [inputs[source]![0] + 1, inputs[source]![1]];
    writeFileSync(inputsFile, JSON.stringify(inputs));
    assert.equal(await current(), 'null', 'a source edited since the build');
    rmSync(inputsFile);
    assert.equal(await current(), 'null', 'no bundle');
  });
});
