import { MAX_ROW_ID } from '../db/row-id.ts';
import { appError } from '../error-catalogue.ts';

/** A file part of a multipart api.php call. */
export interface UploadedFile {
  data: Buffer;
  filename: string;
  mimetype: string;
}

export interface IntegerParam<Required extends boolean> {
  kind: 'integer';
  required: Required;
  min: number;
  description: string;
}

interface StringParam<Required extends boolean> {
  kind: 'string';
  required: Required;
  maxLength: number;
  /** When set, the only values accepted. */
  values?: readonly string[];
  description: string;
}

interface FileParam {
  kind: 'file';
  required: true;
  description: string;
}

export type Param = IntegerParam<boolean> | StringParam<boolean> | FileParam;
export type ParamSpecs = Record<string, Param>;

type ValueOf<P> = P extends FileParam
  ? UploadedFile
  : P extends IntegerParam<infer Required>
    ? Required extends true
      ? number
      : number | undefined
    : P extends StringParam<infer Required>
      ? Required extends true
        ? string
        : string | undefined
      : never;

export type ParamValues<S extends ParamSpecs> = { [K in keyof S]: ValueOf<S[K]> };

export const integerParam = <R extends boolean>(required: R, description: string, min = 1): IntegerParam<R> => ({
  kind: 'integer',
  required,
  min,
  description,
});

export const stringParam = <R extends boolean>(
  required: R,
  description: string,
  options: { maxLength?: number; values?: readonly string[] } = {},
): StringParam<R> => ({ kind: 'string', required, description, maxLength: options.maxLength ?? 200, ...options });

export const fileParam = (description: string): FileParam => ({ kind: 'file', required: true, description });

const DIGITS = /^\d{1,10}$/;

const invalidParameter = (name: string, message: string) =>
  appError('invalid_parameter', `Parameter ${name} ${message}.`, { details: { parameter: name } });

/**
 * Checks raw query/form values against a method's parameters, strictly: integers are
 * plain decimal digits ("2", not "2.0", " 2" or "2abc"), a parameter given twice is an
 * error, unknown parameters are ignored.
 */
export function parseParams<S extends ParamSpecs>(
  specs: S,
  raw: Record<string, unknown>,
  files: Record<string, UploadedFile>,
): ParamValues<S> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.kind === 'file') {
      const file = files[name];
      if (!file) {
        throw appError('missing_parameter', `Parameter ${name} (a file upload) is required.`, {
          details: { parameter: name },
        });
      }
      values[name] = file;
      continue;
    }
    const value = raw[name];
    if (value === undefined || value === '') {
      if (spec.required) {
        throw appError('missing_parameter', `Parameter ${name} is required.`, {
          details: { parameter: name },
        });
      }
      continue;
    }
    if (typeof value !== 'string') throw invalidParameter(name, 'must be given once, as text');
    values[name] = spec.kind === 'integer' ? parseInteger(name, value, spec.min) : parseString(name, value, spec);
  }
  return values as ParamValues<S>;
}

function parseInteger(name: string, value: string, min: number): number {
  if (!DIGITS.test(value)) throw invalidParameter(name, `must be a whole number, at least ${min}`);
  const number = Number(value);
  if (number < min) throw invalidParameter(name, `must be at least ${min}`);
  if (number > MAX_ROW_ID) throw invalidParameter(name, `must be at most ${MAX_ROW_ID}`);
  return number;
}

function parseString(name: string, value: string, spec: StringParam<boolean>): string {
  if (value.length > spec.maxLength) throw invalidParameter(name, `must be at most ${spec.maxLength} characters`);
  if (spec.values && !spec.values.includes(value)) {
    throw invalidParameter(name, `must be one of ${spec.values.join(', ')}`);
  }
  return value;
}
