import { isAppError } from '@repo/server-kit';
import type { FastifyRequest } from 'fastify';
import { appError } from '../error-catalogue.ts';
import { refuseControlCharactersInField } from '../http/control-characters.ts';
import type { UploadedFile } from './params.ts';

export interface ApiInput {
  /** Query parameters merged with form fields (the query wins when both name one). */
  fields: Record<string, unknown>;
  files: Record<string, UploadedFile>;
}

/** Multipart headers and small fields around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** The file fields api.php accepts (photo.addPhoto's `photo`): a part named so is a file, with or without a file name. */
export const FILE_FIELDS = new Set(['photo']);

/** An api.php call's parameters from the query and a form body, if any (not multipart: see readMultipartInput). */
export function readFormInput(request: FastifyRequest): ApiInput {
  const query = request.query as Record<string, unknown>;
  const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  return { fields: { ...body, ...query }, files: {} };
}

/**
 * Collects a multipart api.php call's parameters from the query and the body.
 * A multipart file is read into memory up to `maxBytes`; @fastify/multipart stops the
 * stream at the limit, so an oversize upload is refused without being held whole.
 */
export async function readMultipartInput(request: FastifyRequest, maxBytes: number): Promise<ApiInput> {
  const query = request.query as Record<string, unknown>;
  const declaredLength = Number(request.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes + MULTIPART_OVERHEAD) {
    throw appError('payload_too_large', `The upload is larger than the ${maxBytes} bytes accepted.`);
  }
  const fields: Record<string, unknown> = {};
  const files: Record<string, UploadedFile> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!FILE_FIELDS.has(part.fieldname) || files[part.fieldname]) {
          part.file.resume();
          throw appError('unexpected_file', `Unexpected file field ${part.fieldname}; send one file as photo.`);
        }
        // A part may come without a file name (curl -F 'photo=@-;filename='); the name is then photo_name's alone.
        const filename = part.filename ?? '';
        refuseControlCharactersInField(`${part.fieldname} file name`, filename, 'parameter');
        files[part.fieldname] = { data: await part.toBuffer(), filename, mimetype: part.mimetype };
      } else {
        if (typeof part.value === 'string') refuseControlCharactersInField(part.fieldname, part.value, 'parameter');
        fields[part.fieldname] =
          fields[part.fieldname] === undefined ? part.value : [fields[part.fieldname], part.value];
      }
    }
  } catch (error) {
    // Our errors and @fastify/multipart's limits carry a status; busboy's parse errors do not.
    if (isAppError(error) || typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw appError('invalid_body', 'The multipart/form-data body is malformed.', { cause: error });
  }
  return { fields: { ...fields, ...query }, files };
}
