import type { Readable } from 'node:stream';
import { AppError } from '@repo/server-kit';
export declare const uploadTooLarge: (maxBytes: number) => AppError;
/**
 * Collects a stream into memory, refusing it (and destroying the stream) as soon as it
 * passes `maxBytes`, so an oversize upload never occupies more than the limit.
 */
export declare function readBounded(stream: Readable, maxBytes: number): Promise<Buffer>;
export declare function formatBytes(bytes: number): string;
