/**
 * Where media files live. Local disk now; an S3-compatible store implements the same
 * three calls (and its `url` points at the bucket or CDN).
 */
export interface MediaStorage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Removes a file; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Absolute public URL of a stored file. */
  url(key: string): string;
}
/** A fresh storage key prefix with 128 random bits, so file URLs cannot be guessed. */
export declare function newStoragePrefix(): string;
/** Files under `root`, served by the platform's /media/ route. */
export declare class LocalDiskStorage implements MediaStorage {
  private readonly root;
  private readonly publicBaseUrl;
  constructor(root: string, publicBaseUrl: string);
  put(key: string, data: Buffer): Promise<void>;
  delete(key: string): Promise<void>;
  url(key: string): string;
  private pathOf;
}
