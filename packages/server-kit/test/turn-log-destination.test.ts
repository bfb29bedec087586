import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { TurnLogDestination } from '../src/turn-log-destination.ts';

const run = promisify(execFile);

/** A sink that records each write it is handed. */
function recordingSink() {
  const writes: string[] = [];
  let syncFlushes = 0;
  return {
    writes,
    syncFlushes: () => syncFlushes,
    sink: {
      write: (lines: string) => writes.push(lines),
      flushSync: () => {
        syncFlushes++;
      },
    },
  };
}

/** Runs `script` (ESM, TypeScript through tsx) in a child Node process; resolves to its stdout, whatever its exit code. */
async function childStdout(script: string): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('..', import.meta.url).pathname,
    });
    return { stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { stdout: failed.stdout, code: failed.code };
  }
}

describe('TurnLogDestination', () => {
  it('hands the lines of one turn to the sink as one write, in order, at the end of that turn', async () => {
    const { writes, sink } = recordingSink();
    const destination = new TurnLogDestination(sink);
    destination.write('a\n');
    destination.write('b\n');
    destination.write('c\n');
    assert.deepEqual(writes, [], 'nothing is written before the turn ends');
    await nextTurn();
    assert.deepEqual(writes, ['a\nb\nc\n']);
    destination.write('d\n');
    await nextTurn();
    assert.deepEqual(writes, ['a\nb\nc\n', 'd\n'], 'a later turn is a write of its own');
    await nextTurn();
    assert.equal(writes.length, 2, 'a turn without lines writes nothing');
  });

  it('flushSync writes the pending lines at once and has the sink flush', () => {
    const { writes, sink, syncFlushes } = recordingSink();
    const destination = new TurnLogDestination(sink);
    destination.write('x\n');
    destination.flushSync();
    assert.deepEqual(writes, ['x\n']);
    assert.equal(syncFlushes(), 1);
  });

  it("a server's request lines reach a real stdout pipe, also when the process exits or crashes in the same turn", async () => {
    const setUp = `
      import { createFastify } from './src/server.ts';
      const app = createFastify({ logLevel: 'info', trustProxy: false });
      app.get('/', async () => 'ok');
      await app.inject('/');
      await app.inject('/');
      app.log.info('last line of the turn');
    `;
    const lines = (stdout: string) =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).msg);
    const expected = ['request completed', 'request completed', 'last line of the turn'];

    const normal = await childStdout(`${setUp} await app.close();`);
    assert.deepEqual(lines(normal.stdout), expected);

    const exited = await childStdout(`${setUp} process.exit(3);`);
    assert.equal(exited.code, 3);
    assert.deepEqual(lines(exited.stdout), expected, 'process.exit() in the same turn loses no line');

    const crashed = await childStdout(`${setUp} throw new Error('crash');`);
    assert.equal(crashed.code, 1);
    assert.deepEqual(lines(crashed.stdout), expected, 'an uncaught exception in the same turn loses no line');
  });
});
