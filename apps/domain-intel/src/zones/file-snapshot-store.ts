import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sweepTemporaryFiles, temporaryPath } from '@repo/server-kit/temp-files';
import { describeReadFailure, openDecompressed, splitLines } from './byte-source.ts';
import { ZoneError } from './errors.ts';
import { batchOf, isNameBatch, type NameBatch, OrderCheck } from './name-batch.ts';
import type { StagedSnapshot, WritableSnapshotStore } from './snapshot-store.ts';
import { assertSnapshotDate, normalizeTld } from './validation.ts';

const SNAPSHOT_FILE = /^(\d{4}-\d{2}-\d{2})\.txt\.gz$/;

/**
 * Snapshots as gzip files of newline-terminated names: `<root>/<tld>/<YYYY-MM-DD>.txt.gz`
 * (`zcat` + `comm` work on them directly). A file exists only once complete: it is written
 * under a temporary name (server-kit's, naming its writer), flushed to disk, then renamed into
 * place; `sweepLeftovers` removes what a crashed writer left.
 */
export class FileSnapshotStore implements WritableSnapshotStore {
  constructor(readonly root: string) {}

  static forDataDir(dataDir: string): FileSnapshotStore {
    return new FileSnapshotStore(path.join(dataDir, 'zones', 'snapshots'));
  }

  fileOf(tld: string, date: string): string {
    return path.join(this.root, normalizeTld(tld), `${assertSnapshotDate(date)}.txt.gz`);
  }

  async dates(tld: string): Promise<string[]> {
    let entries: string[];
    try {
      entries = await readdir(path.join(this.root, normalizeTld(tld)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return entries.flatMap((entry) => SNAPSHOT_FILE.exec(entry)?.[1] ?? []).sort();
  }

  /** Removes snapshot temp files whose writer died (see server-kit's sweepTemporaryFiles). */
  async sweepLeftovers(): Promise<string[]> {
    let tlds: string[];
    try {
      tlds = await readdir(this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const removed = await Promise.all(tlds.map((tld) => sweepTemporaryFiles(path.join(this.root, tld))));
    return removed.flat();
  }

  async latestDate(tld: string): Promise<string | null> {
    return (await this.dates(tld)).at(-1) ?? null;
  }

  async has(tld: string, date: string): Promise<boolean> {
    try {
      return (await stat(this.fileOf(tld, date))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async *readChunks(tld: string, date: string): AsyncGenerator<Buffer> {
    const file = this.fileOf(tld, date);
    if (!(await this.has(tld, date))) {
      throw new ZoneError('snapshot_not_found', `No snapshot of .${normalizeTld(tld)} for ${date}.`);
    }
    try {
      yield* await openDecompressed(file);
    } catch (error) {
      throw describeReadFailure(error, file);
    }
  }

  async *read(tld: string, date: string): AsyncGenerator<string> {
    for await (const lines of splitLines(this.readChunks(tld, date))) {
      for (const line of lines) if (line.length > 0) yield line;
    }
  }

  async measure(tld: string, date: string): Promise<{ names: number; bytes: number }> {
    let names = 0;
    for await (const lines of splitLines(this.readChunks(tld, date))) {
      for (const line of lines) if (line.length > 0) names++;
    }
    return { names, bytes: (await stat(this.fileOf(tld, date))).size };
  }

  async stage(
    tld: string,
    date: string,
    sortedNames: AsyncIterable<readonly string[] | NameBatch>,
  ): Promise<StagedSnapshot> {
    const target = this.fileOf(tld, date);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = temporaryPath(path.dirname(target), `.${date}`);
    let names = 0;
    async function* ordered() {
      const order = new OrderCheck();
      for await (const input of sortedNames) {
        const batch = isNameBatch(input) ? input : batchOf(input);
        order.check(batch);
        names += batch.count;
        if (batch.count > 0) yield Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
      }
    }
    try {
      await pipeline(Readable.from(ordered()), createGzip(), createWriteStream(temporary));
      await syncPath(temporary);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    const { size } = await stat(temporary);
    return {
      tld: normalizeTld(tld),
      date,
      names,
      bytes: size,
      async commit() {
        await rename(temporary, target);
        await syncPath(path.dirname(target));
      },
      async discard() {
        await rm(temporary, { force: true });
      },
    };
  }
}

/** fsync a file or directory so a rename after it cannot publish data still in the page cache. */
async function syncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems refuse fsync on directories; the rename itself is still atomic.
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL' && (error as NodeJS.ErrnoException).code !== 'EISDIR') {
      throw error;
    }
  } finally {
    await handle.close();
  }
}
