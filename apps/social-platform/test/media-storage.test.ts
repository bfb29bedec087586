import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { tempDir } from '@repo/server-kit/testing';
import { LocalDiskStorage } from '../src/media/storage.ts';

const run = promisify(execFile);

describe('local media storage', () => {
  it('writes through .incoming, and a restart sweeps the half-written uploads of a dead process', async () => {
    const root = tempDir('media');
    try {
      const storage = new LocalDiskStorage(root.dir, 'http://127.0.0.1/');
      await storage.put('ab/abcdef.jpg', Buffer.from('jpeg bytes'));
      assert.ok(existsSync(path.join(root.dir, 'ab', 'abcdef.jpg')));
      const incoming = path.join(root.dir, '.incoming');
      assert.deepEqual(await readdir(incoming), [], 'nothing left behind by a finished upload');

      // Another process writes an upload's temporary file and dies before renaming it.
      const script =
        "import { writeFileSync } from 'node:fs'; import { temporaryPath } from '@repo/server-kit';" +
        "const file = temporaryPath(process.argv[1], 'photo.jpg'); writeFileSync(file, 'half'); console.log(file);";
      const { stdout } = await run(process.execPath, [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
        incoming,
      ]);
      const leftover = stdout.trim();
      assert.ok(existsSync(leftover));

      const restarted = new LocalDiskStorage(root.dir, 'http://127.0.0.1/');
      assert.deepEqual(await restarted.sweepLeftovers(), [leftover]);
      assert.equal(existsSync(leftover), false);
      assert.ok(existsSync(path.join(root.dir, 'ab', 'abcdef.jpg')), 'stored files are untouched');
    } finally {
      root.remove();
    }
  });
});
