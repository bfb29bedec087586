import type { Readable } from 'node:stream';
import { isAppError } from '@repo/server-kit';
import type { FastifyError, FastifyRequest } from 'fastify';
import { appError } from '../error-catalogue.ts';
import { refuseControlCharactersInField } from '../http/control-characters.ts';

export interface ReceivedImage {
  stream: Readable;
  /** The text fields placed before the file input in the form. */
  fields: Record<string, string>;
}

/**
 * The image file of a multipart form, as a stream for the photo pipeline (which checks
 * type by content, size and pixels). Form text fields must come before the file input.
 */
export async function receiveImage(
  request: FastifyRequest,
  fieldName: string,
  maxBytes: number,
): Promise<ReceivedImage> {
  let file: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    // One byte over the limit, so the pipeline's own check reports the size instead of a silent cut.
    file = await request.file({ limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 1024 } });
  } catch (error) {
    throw asFormError(error);
  }
  if (!file || file.fieldname !== fieldName || !file.filename) {
    file?.file.resume();
    throw appError('file_missing', 'Choose a photo to upload.');
  }
  const fields: Record<string, string> = {};
  try {
    for (const [name, entry] of Object.entries(file.fields)) {
      const value = Array.isArray(entry) ? entry[0] : entry;
      if (value && value.type === 'field' && typeof value.value === 'string') {
        refuseControlCharactersInField(name, value.value, 'parameter');
        fields[name] = value.value;
      }
    }
  } catch (error) {
    file.file.resume();
    throw error;
  }
  return { stream: file.file, fields };
}

function asFormError(error: unknown): unknown {
  if (isAppError(error)) return error;
  const status = (error as FastifyError).statusCode;
  if (status === 406) return appError('not_multipart', 'Send the photo with the upload form.');
  // @fastify/multipart's limits: 413 for a file over the size, 400 for a broken form.
  if (status === 413) return appError('payload_too_large', (error as Error).message);
  if (typeof status === 'number' && status < 500) return appError('invalid_body', (error as Error).message);
  return error;
}
