import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { mapFile } from '../src/index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mapped-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('maps a file read-only and shared: its bytes, listed in /proc/self/maps as r--s', () => {
  const file = path.join(dir, 'bytes.bin');
  const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
  writeFileSync(file, bytes);
  const mapped = mapFile(file);
  assert.equal(mapped.byteLength, bytes.length);
  assert.deepEqual(Buffer.from(mapped), bytes);
  const maps = readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((line) => line.endsWith(file));
  assert.ok(maps.length > 0, 'the file is mapped');
  assert.ok(
    maps.every((line) => line.split(/\s+/)[1] === 'r--s'),
    maps.join('\n'),
  );
});

test('a mapping outlives the file being replaced by a rename or unlinked', () => {
  const file = path.join(dir, 'replaced.bin');
  writeFileSync(file, 'first');
  const mapped = mapFile(file);
  writeFileSync(`${file}.new`, 'second');
  renameSync(`${file}.new`, file);
  assert.equal(Buffer.from(mapped).toString(), 'first');
  rmSync(file);
  assert.equal(Buffer.from(mapped).toString(), 'first');
});

test('an empty file is an empty buffer', () => {
  const file = path.join(dir, 'empty.bin');
  writeFileSync(file, '');
  assert.equal(mapFile(file).byteLength, 0);
});

test('errors are thrown as fs errors: code, errno, syscall, path', () => {
  const missing = path.join(dir, 'missing.bin');
  assert.throws(() => mapFile(missing), { code: 'ENOENT', syscall: 'open', path: missing });
  assert.throws(() => mapFile(dir), { code: 'ENODEV', syscall: 'mmap' });
});
