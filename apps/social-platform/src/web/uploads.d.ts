import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
export interface ReceivedImage {
  stream: Readable;
  /** The text fields placed before the file input in the form. */
  fields: Record<string, string>;
}
/**
 * The image file of a multipart form, as a stream for the photo pipeline (which checks
 * type by content, size and pixels). Form text fields must come before the file input.
 */
export declare function receiveImage(
  request: FastifyRequest,
  fieldName: string,
  maxBytes: number,
): Promise<ReceivedImage>;
