import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '@repo/server-kit/testing';
import fc from 'fast-check';
import { sortUnique } from '../src/zones/external-sort.ts';
import { FileSnapshotStore } from '../src/zones/file-snapshot-store.ts';
import { batchOf, type NameBatch, NameBatchWriter, namesOf } from '../src/zones/name-batch.ts';
import { diffSnapshots } from '../src/zones/snapshot-diff.ts';
import { diffSortedLines, type NameChange } from '../src/zones/sorted-diff.ts';

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const names = fc.array(
  label.map((value) => `${value}.com`),
  { maxLength: 300 },
);

async function collect<T>(source: AsyncIterable<T[]> | AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) {
    if (Array.isArray(item)) out.push(...item);
    else out.push(item);
  }
  return out;
}

/** The names the sort yields, decoded. */
async function sortedNames(batches: AsyncIterable<NameBatch>): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of batches) out.push(...namesOf(batch));
  return out;
}

async function* arrayOf<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

/** Names in batches of up to three, as the zone reader hands them to the sort. */
async function* batchesOf(names: string[]): AsyncGenerator<NameBatch> {
  for (let start = 0; start < names.length; start += 3) yield batchOf(names.slice(start, start + 3));
}

/** The text cut into chunks at the given offsets, to put chunk edges in the middle of lines. */
function chunked(text: string, cuts: number[]): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  const edges = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const edge of [...edges, bytes.length]) {
    if (edge > start) chunks.push(bytes.subarray(start, edge));
    start = Math.max(start, edge);
  }
  return arrayOf(chunks);
}

function expectedDiff(older: string[], newer: string[]): NameChange[] {
  const before = new Set(older);
  const after = new Set(newer);
  return [
    ...older.filter((name) => !after.has(name)).map((name) => ({ name, change: 'removed' as const })),
    ...newer.filter((name) => !before.has(name)).map((name) => ({ name, change: 'added' as const })),
  ].sort((a, b) => byteOrder(a.name, b.name));
}

describe('external sort', () => {
  it('sorts in byte order and removes duplicates, across spilled runs, like LC_ALL=C sort -u', async () => {
    const temp = tempDir('zones-sort');
    try {
      await fc.assert(
        fc.asyncProperty(names, fc.integer({ min: 1, max: 40 }), async (input, chunkNames) => {
          const sorted = await sortedNames(sortUnique(batchesOf(input), { tempDir: temp.dir, chunkNames }));
          assert.deepEqual(sorted, [...new Set(input)].sort(byteOrder));
        }),
        { numRuns: 60 },
      );
      assert.deepEqual(readdirSync(temp.dir), [], 'spilled runs are removed');
    } finally {
      temp.remove();
    }
  });

  it('sorts any byte, not only host-name characters, in byte order', async () => {
    const temp = tempDir('zones-sort');
    try {
      const latin1 = fc.string({
        unit: fc.integer({ min: 11, max: 255 }).map((code) => String.fromCharCode(code)),
        maxLength: 8,
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(latin1, { maxLength: 200 }),
          fc.integer({ min: 1, max: 50 }),
          async (input, chunkNames) => {
            const byLatin1 = (a: string, b: string) =>
              Buffer.compare(Buffer.from(a, 'latin1'), Buffer.from(b, 'latin1'));
            const sorted = await sortedNames(sortUnique(batchesOf(input), { tempDir: temp.dir, chunkNames }));
            assert.deepEqual(sorted, [...new Set(input.filter((name) => name.length > 0))].sort(byLatin1));
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      temp.remove();
    }
  });

  it('puts "-" before "." as byte order does (a-b.com < a.com)', async () => {
    const temp = tempDir('zones-sort');
    try {
      const sorted = await sortedNames(
        sortUnique(batchesOf(['a.com', 'a-b.com', 'a0.com']), { tempDir: temp.dir, chunkNames: 1 }),
      );
      assert.deepEqual(sorted, ['a-b.com', 'a.com', 'a0.com']);
    } finally {
      temp.remove();
    }
  });
});

describe('name batches', () => {
  it('tell whether their names came in ascending byte order, repeats dropped', () => {
    fc.assert(
      fc.property(fc.array(names, { minLength: 1, maxLength: 4 }), (batches) => {
        const writer = new NameBatchWriter({ foldCase: false, batchBytes: 64 });
        let previous: string | undefined;
        for (const batch of batches) {
          const kept: string[] = [];
          let ascending = true;
          for (const name of batch) {
            writer.add(Buffer.from(name, 'latin1'), 0, name.length);
            if (name === previous) continue;
            if (previous !== undefined && byteOrder(previous, name) > 0) ascending = false;
            kept.push(name);
            previous = name;
          }
          const taken = writer.take();
          assert.deepEqual(taken ? namesOf(taken) : [], kept);
          if (taken) assert.equal(taken.ascending, ascending);
        }
      }),
    );
  });
});

describe('sorted diff', () => {
  it('equals the set difference, wherever the chunk edges fall', async () => {
    await fc.assert(
      fc.asyncProperty(
        names,
        names,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (left, right, cutsA, cutsB) => {
          const older = [...new Set(left)].sort(byteOrder);
          const newer = [...new Set(right)].sort(byteOrder);
          const text = (list: string[]) => list.map((name) => `${name}\n`).join('');
          const changes = await collect(diffSortedLines(chunked(text(older), cutsA), chunked(text(newer), cutsB)));
          assert.deepEqual(changes, expectedDiff(older, newer));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('skips long equal stretches and still finds isolated changes', async () => {
    const base = Array.from({ length: 20_000 }, (_, i) => `name${String(i).padStart(6, '0')}.com`);
    const newer = base.filter((_, i) => i % 997 !== 0).concat(['zzz-new.com']);
    const changes = await collect(
      diffSortedLines(chunked(base.join('\n') + '\n', [5000, 70_001]), chunked(newer.join('\n') + '\n', [3])),
    );
    assert.deepEqual(changes, expectedDiff(base, newer));
  });

  it('reads a last line without a newline', async () => {
    const changes = await collect(diffSortedLines(chunked('a.com\nb.com', []), chunked('a.com\n', [])));
    assert.deepEqual(changes, [{ name: 'b.com', change: 'removed' }]);
  });
});

describe('file snapshot store', () => {
  it('stages, commits atomically, lists, reads and diffs snapshots', async () => {
    const temp = tempDir('zones-store');
    try {
      const store = new FileSnapshotStore(path.join(temp.dir, 'snapshots'));
      assert.deepEqual(await store.dates('com'), []);
      assert.equal(await store.latestDate('com'), null);

      const first = await store.stage('com', '2026-03-09', arrayOf([['a.com', 'b.com'], ['c.com']]));
      assert.equal(first.names, 3);
      assert.equal(await store.has('com', '2026-03-09'), false, 'invisible until committed');
      assert.deepEqual(await store.dates('com'), []);
      await first.commit();
      const second = await store.stage('com', '2026-03-10', arrayOf([['b.com', 'c.com', 'd.com']]));
      await second.commit();
      const discarded = await store.stage('com', '2026-03-11', arrayOf([['x.com']]));
      await discarded.discard();

      assert.deepEqual(await store.dates('com'), ['2026-03-09', '2026-03-10']);
      assert.equal(await store.latestDate('com'), '2026-03-10');
      assert.deepEqual(await collect(store.read('com', '2026-03-10')), ['b.com', 'c.com', 'd.com']);
      assert.deepEqual((await store.measure('com', '2026-03-09')).names, 3);
      assert.deepEqual(readdirSync(path.join(temp.dir, 'snapshots', 'com')).sort(), [
        '2026-03-09.txt.gz',
        '2026-03-10.txt.gz',
      ]);
      assert.deepEqual(await collect(diffSnapshots(store, 'com', '2026-03-09', '2026-03-10')), [
        { name: 'a.com', change: 'removed' },
        { name: 'd.com', change: 'added' },
      ]);
    } finally {
      temp.remove();
    }
  });

  it('refuses unsorted input and leaves no file behind', async () => {
    const temp = tempDir('zones-store');
    try {
      const store = new FileSnapshotStore(temp.dir);
      await assert.rejects(store.stage('com', '2026-03-09', arrayOf([['b.com', 'a.com']])), /not sorted/);
      assert.deepEqual(readdirSync(path.join(temp.dir, 'com')), []);
    } finally {
      temp.remove();
    }
  });

  it('checks a batch its producer found ascending at its edges, against the batch before it', async () => {
    const temp = tempDir('zones-store');
    const ascending = (names: string[]): NameBatch => ({ ...batchOf(names), ascending: true });
    try {
      const store = new FileSnapshotStore(temp.dir);
      const staged = await store.stage(
        'com',
        '2026-03-09',
        arrayOf([ascending(['a.com', 'b.com']), ascending(['c.com'])]),
      );
      assert.equal(staged.names, 3);
      await staged.discard();
      await assert.rejects(
        store.stage('com', '2026-03-10', arrayOf([ascending(['b.com', 'c.com']), ascending(['a.com', 'd.com'])])),
        /not sorted and distinct: "a\.com" after "c\.com"/,
      );
      await assert.rejects(
        store.stage('com', '2026-03-10', arrayOf([ascending(['b.com', 'c.com']), ascending(['c.com'])])),
        /not sorted/,
      );
    } finally {
      temp.remove();
    }
  });

  it('answers clear errors for a missing snapshot, a bad TLD or date', async () => {
    const temp = tempDir('zones-store');
    try {
      const store = new FileSnapshotStore(temp.dir);
      await assert.rejects(collect(store.read('com', '2026-03-09')), { code: 'snapshot_not_found' });
      await assert.rejects(store.dates('../etc'), { code: 'invalid_tld' });
      await assert.rejects(store.has('com', '2026-02-30'), { code: 'invalid_date' });
      assert.throws(() => diffSnapshots(store, 'com', '2026-03-09', 'yesterday'), { code: 'invalid_date' });
    } finally {
      temp.remove();
    }
  });
});
