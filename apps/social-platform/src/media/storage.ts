import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sweepTemporaryFiles, temporaryPath } from '@repo/server-kit';

/**
 * Where media files live. Local disk now; an S3-compatible store implements the same
 * calls (and its `url` points at the bucket or CDN).
 */
export interface MediaStorage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Stores a copy of `from` under `to` (a photo that stops being public moves to new keys). */
  copy(from: string, to: string): Promise<void>;
  /** Removes a file; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Absolute public URL of a stored file. */
  url(key: string): string;
}

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\.[a-z0-9]+$/;

/** Whether `key` has the shape of a storage key (no dot directories, no `..`, no absolute path). */
export const isStorageKey = (key: string): boolean => SAFE_KEY.test(key);

/** A fresh storage key prefix with 128 random bits, so file URLs cannot be guessed. */
export function newStoragePrefix(): string {
  const id = randomBytes(16).toString('base64url');
  // Two levels of fan-out keep any one directory small.
  return `${id.slice(0, 2)}/${id}`;
}

/**
 * Files under `root`, served by the platform's /media/ route. Uploads are written to
 * `root/.incoming/` (a dot directory the route refuses to serve) and renamed into place, so a
 * reader never sees a half-written file; `sweepLeftovers` removes what a crashed writer left there.
 */
export class LocalDiskStorage implements MediaStorage {
  readonly #incoming: string;

  constructor(
    private readonly root: string,
    private readonly publicBaseUrl: string,
  ) {
    this.#incoming = path.join(root, '.incoming');
  }

  async sweepLeftovers(): Promise<string[]> {
    return sweepTemporaryFiles(this.#incoming);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await mkdir(this.#incoming, { recursive: true });
    const temporary = temporaryPath(this.#incoming, path.basename(file));
    try {
      await writeFile(temporary, data);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async copy(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    await mkdir(this.#incoming, { recursive: true });
    const temporary = temporaryPath(this.#incoming, path.basename(target));
    try {
      await copyFile(this.pathOf(from), temporary);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  url(key: string): string {
    return `${this.publicBaseUrl}/media/${key}`;
  }

  /** The file of `key` under the root; refuses anything but a key `newStoragePrefix` could make. */
  pathOf(key: string): string {
    if (!isStorageKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.root, key);
  }
}
