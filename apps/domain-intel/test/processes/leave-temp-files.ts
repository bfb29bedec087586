// A separate process for crash tests: creates temporary files and directories the way a
// writer does (server-kit temporaryPath) in each directory given, then exits without removing
// them, as a crashed import, index build or upload would. Prints the paths, one per line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { temporaryPath } from '@repo/server-kit';

for (const [index, directory] of process.argv.slice(2).entries()) {
  mkdirSync(directory, { recursive: true });
  const leftover = temporaryPath(directory, index % 2 === 0 ? 'sort' : '.2026-03-10');
  if (index % 2 === 0) {
    mkdirSync(leftover);
    writeFileSync(`${leftover}/run-00000.gz`, 'half a sort run');
  } else {
    writeFileSync(leftover, 'half a file');
  }
  process.stdout.write(`${leftover}\n`);
}
