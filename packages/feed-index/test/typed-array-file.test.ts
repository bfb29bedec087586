import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { FeedColumns } from '../src/feed-columns.ts';
import { FeedIndex } from '../src/feed-index.ts';
import { parseFeedFilters } from '../src/filters.ts';
import {
  mapTypedArrayFile,
  TYPED_ARRAY_FILE_FORMAT,
  TypedArrayFileError,
  writeTypedArrayFile,
} from '../src/typed-array-file.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'typed-array-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string) => path.join(dir, name);

/** A tree of every kind the format holds: typed arrays of each kind (a view into a larger buffer, one on shared memory), non-finite numbers, nesting. */
function sampleTree() {
  const shared = new Uint32Array(new SharedArrayBuffer(40)).map((_, i) => i * 7);
  return {
    size: 3,
    name: 'sample',
    flag: true,
    nothing: null,
    notANumber: Number.NaN,
    infinite: [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
    bytes: Uint8Array.from([1, 2, 3]),
    view: new Float64Array([0.5, -1, Number.NaN, 4]).subarray(1, 3),
    shared,
    nested: {
      list: [new Int8Array([-1, 2]), new Uint16Array(0), new BigInt64Array([-5n])],
      more: { i32: new Int32Array([-9]) },
    },
  };
}

test('writes a tree of plain data and typed arrays and maps it back: equal values, every array a view over one mapping', async () => {
  const tree = sampleTree();
  await writeTypedArrayFile(file('sample'), 'sample', { note: 'meta' }, tree);
  const mapped = mapTypedArrayFile(file('sample'), 'sample');
  assert.deepEqual(mapped.meta, { note: 'meta' });
  const read = mapped.tree as ReturnType<typeof sampleTree>;
  assert.deepEqual({ ...read, shared: [...read.shared] }, { ...tree, shared: [...tree.shared] });
  const buffers = new Set([read.bytes.buffer, read.view.buffer, read.shared.buffer, read.nested.more.i32.buffer]);
  assert.equal(buffers.size, 1, 'one buffer');
  for (const array of [read.bytes, read.view, read.shared, read.nested.list[2]!]) assert.equal(array.byteOffset % 8, 0);
  assert.deepEqual(
    readdirSync(dir).filter((name) => name.endsWith('.tmp')),
    [],
    'no temporary file left',
  );
});

test('a file that is not a whole typed-array file of its kind is refused, saying why', async () => {
  await writeTypedArrayFile(file('good'), 'sample', null, sampleTree());
  const good = readFileSync(file('good'));
  const refused = (name: string, bytes: Uint8Array, problem: string, kind = 'sample') => {
    writeFileSync(file(name), bytes);
    assert.throws(
      () => mapTypedArrayFile(file(name), kind),
      (error: unknown) =>
        error instanceof TypedArrayFileError &&
        error.problem === problem &&
        error.message.startsWith(`${file(name)} is not a usable ${kind} file`),
    );
  };
  refused('foreign', Buffer.from('{"json": "but not this format"}\n'.repeat(4)), 'not-this-format');
  refused('tiny', Buffer.from('TYPED'), 'not-this-format');
  refused('cut', good.subarray(0, good.length - 1), 'length');
  refused('cut-in-header', good.subarray(0, 60), 'length');
  refused('appended', Buffer.concat([good, Buffer.alloc(8)]), 'length');
  const flipped = Buffer.from(good);
  flipped[50] = flipped[50]! ^ 1;
  refused('flipped', flipped, 'header-checksum');
  const newer = Buffer.from(good);
  newer.writeUInt32LE(TYPED_ARRAY_FILE_FORMAT + 1, 8);
  refused('newer', newer, 'format-version');
  refused('other-kind', good, 'kind', 'other');
  writeFileSync(file('truncated-later'), good);
  truncateSync(file('truncated-later'), good.length - 8);
  assert.throws(() => mapTypedArrayFile(file('truncated-later'), 'sample'), { problem: 'length' });
  assert.throws(() => mapTypedArrayFile(file('absent'), 'sample'), { code: 'ENOENT' });
});

test('what is not plain data is refused at write, naming where it is, and no file is left', async () => {
  await assert.rejects(writeTypedArrayFile(file('map'), 'sample', null, { groups: { byKey: new Map() } }), {
    message: /tree\.groups\.byKey: a Map cannot be written/,
  });
  await assert.rejects(writeTypedArrayFile(file('view'), 'sample', null, [new DataView(new ArrayBuffer(1))]), {
    message: /tree\[0\]: a DataView cannot be written/,
  });
  assert.deepEqual(
    readdirSync(dir).filter((name) => name.startsWith('map') || name.startsWith('view')),
    [],
  );
});

test('a feed index snapshot holds its version and what it covers, and answers as the index', async () => {
  const columns = FeedColumns.fromRows(
    ['alpha.com', 'beta-1.net', 'gamma.org', 'delta.com'].map((domain, i) => ({
      domain,
      tld: domain.split('.')[1]!,
      status: i === 3 ? 'new' : 'dropped',
      dropped_at: i === 3 ? null : Date.UTC(2026, 2, 1 + i),
      first_archived_at: i === 0 ? null : Date.UTC(2015 + i, 0, 1),
      alt_tld_count: i,
      da: 10 * i,
      tf: i === 2 ? null : 5 * i,
      length: domain.split('.')[0]!.length,
      has_hyphen: domain.includes('-') ? 1 : 0,
      has_digit: /\d/.test(domain) ? 1 : 0,
      expected_drop_at: null,
    })),
  );
  const since = Date.UTC(2026, 1, 1);
  const built = FeedIndex.fromColumns(columns, 7, { cachedFilters: 0, droppedSince: since });
  await built.writeSnapshot(file('feed'), { retentionDays: 30, maxRows: 0 });
  const { index, meta } = FeedIndex.fromSnapshot(file('feed'));
  assert.deepEqual(meta, { version: 7, droppedSince: since, settings: { retentionDays: 30, maxRows: 0 } });
  assert.equal(index.version, 7);
  const all = parseFeedFilters({ status: 'any' }, []);
  assert.equal(index.covers(all), false, 'older drops are not in it: SQL answers');
  assert.equal(index.covers({ ...all, droppedAfter: since }), true);
  for (const sort of ['dropped_at', 'da', 'tf', 'alt_tld_count', 'age'] as const) {
    const page = { sort, limit: 10, offset: 0 };
    assert.deepEqual(index.page(all, page, Date.UTC(2026, 2, 10)), built.page(all, page, Date.UTC(2026, 2, 10)));
  }
  assert.equal(index.count({ ...all, contains: 'a' }, 0), built.count({ ...all, contains: 'a' }, 0));
});
