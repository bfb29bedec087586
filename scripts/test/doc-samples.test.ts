/**
 * Doc test: every HTTP example of the guides (curl lines, `GET /path` transcripts, the TypeScript SDK
 * and Python samples) runs against `npm start`'s system, and the JSON answer a guide shows after a call
 * is checked loosely against what the call returned (doc-samples-answer.ts; docs/development.md). A
 * guide that drifts from the service fails here rather than in a reader's terminal.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { samplesOf } from './doc-samples-blocks.ts';
import { type RunContext, runSample } from './doc-samples-run.ts';
import { type Stack, startStack } from './doc-samples-stack.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const guides = path.join(root, 'docs/guides');
const files = readdirSync(guides, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.md'))
  .sort();
const samples = files.flatMap((file) => samplesOf(file, readFileSync(path.join(guides, file), 'utf8')));

function installed(command: string): boolean {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const python = installed('python3');
if (!python) process.stderr.write('\n!!! python3 is not installed: the guides’ Python samples are SKIPPED\n\n');

describe('the guides’ HTTP samples do what the guides say', () => {
  let stack: Stack;
  let receiver: Server;
  let context: RunContext;
  const work = path.join(root, '.tmp', `doc-samples-${process.pid}`);

  before(async () => {
    mkdirSync(work, { recursive: true });
    // The photo the upload sample sends (`-F photo=@beach.jpg`).
    writeFileSync(
      path.join(work, 'beach.jpg'),
      await sharp({ create: { width: 640, height: 480, channels: 3, background: '#4a90c0' } })
        .jpeg()
        .toBuffer(),
    );
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    stack = await startStack();
    context = { stack, work, receiverPort: (receiver.address() as { port: number }).port, python };
  });
  after(async () => {
    await stack?.stop();
    receiver?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('finds the samples: every guide’s calls are classified, none silently', () => {
    const runnable = samples.filter((sample) => sample.kind && !sample.skip);
    assert.ok(runnable.length >= 20, `only ${runnable.length} runnable samples found`);
    for (const sample of samples.filter((each) => each.skip === 'marked no-run')) {
      // A sample kept out of the test says why in the text before it (the convention of docs/development.md).
      assert.ok(sample.kind, `${sample.file}:${sample.line} is marked no-run but is no call`);
    }
  });

  for (const sample of samples.filter((each) => each.kind && !each.skip)) {
    const skip = sample.kind === 'python' && !python ? 'python3 is not installed' : false;
    it(`${sample.file}:${sample.line} (${sample.kind})`, { skip }, async () => {
      const problems = await runSample(sample, context);
      assert.deepEqual(problems, [], `${sample.file}:${sample.line}\n${problems.join('\n')}`);
    });
  }
});
