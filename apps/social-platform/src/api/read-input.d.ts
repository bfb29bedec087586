import type { FastifyRequest } from 'fastify';
import type { UploadedFile } from './params.ts';
export interface ApiInput {
  /** Query parameters merged with form fields (the query wins when both name one). */
  fields: Record<string, unknown>;
  files: Record<string, UploadedFile>;
}
/**
 * Collects an api.php call's parameters from the query and a form or multipart body.
 * A multipart file is read into memory up to `maxBytes`; @fastify/multipart stops the
 * stream at the limit, so an oversize upload is refused without being held whole.
 */
export declare function readApiInput(request: FastifyRequest, maxBytes: number): Promise<ApiInput>;
