import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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

/**
 * A child process (with --expose-gc, so the freed blocks are surely collected) that leaves 32 MB freed
 * in the middle of the C heap, then reads its anonymous memory before and after `release` ('trim':
 * releaseFreedMemory; 'wait': nothing, the control). 64 KB blocks are below glibc's mmap threshold, so
 * they come from the heap, and every other one is freed: the freed half sits between live blocks.
 */
function freedInTheMiddle(release: 'trim' | 'wait'): { before: number; after: number } {
  const addon = new URL('../build/Release/mapped_file.node', import.meta.url).pathname;
  const script = `
    const { createRequire } = require('node:module');
    const { readFileSync } = require('node:fs');
    const binding = createRequire(${JSON.stringify(addon)})(${JSON.stringify(addon)});
    const anonymous = () => Number(/^Anonymous:\\s+(\\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))[1]) * 1024;
    const blocks = Array.from({ length: 1024 }, () => Buffer.alloc(65536, 1));
    for (let i = 0; i < blocks.length; i += 2) blocks[i] = null;
    globalThis.gc();
    const before = anonymous();
    (${JSON.stringify(release)} === 'trim' ? binding.releaseFreedMemory() : new Promise((r) => setTimeout(r, 50))).then(() => {
      console.log(JSON.stringify({ before, after: anonymous(), live: blocks.length }));
    });`;
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' }));
}

test('releaseFreedMemory gives back what the C allocator kept of memory freed in the middle of its heap', () => {
  const trimmed = freedInTheMiddle('trim');
  assert.ok(
    trimmed.before - trimmed.after > 16 * 1_048_576,
    `anonymous memory ${trimmed.before} → ${trimmed.after} bytes`,
  );
  // The control: without it the freed half stays resident.
  const kept = freedInTheMiddle('wait');
  assert.ok(
    kept.before - kept.after < 8 * 1_048_576,
    `anonymous memory ${kept.before} → ${kept.after} bytes without it`,
  );
});
