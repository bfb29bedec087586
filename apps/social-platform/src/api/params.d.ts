/** A file part of a multipart api.php call. */
export interface UploadedFile {
  data: Buffer;
  filename: string;
  mimetype: string;
}
interface IntegerParam<Required extends boolean> {
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
export type ParamValues<S extends ParamSpecs> = {
  [K in keyof S]: ValueOf<S[K]>;
};
export declare const integerParam: <R extends boolean>(
  required: R,
  description: string,
  min?: number,
) => IntegerParam<R>;
export declare const stringParam: <R extends boolean>(
  required: R,
  description: string,
  options?: {
    maxLength?: number;
    values?: readonly string[];
  },
) => StringParam<R>;
export declare const fileParam: (description: string) => FileParam;
/**
 * Checks raw query/form values against a method's parameters, strictly: integers are
 * plain decimal digits ("2", not "2.0", " 2" or "2abc"), a parameter given twice is an
 * error, unknown parameters are ignored.
 */
export declare function parseParams<S extends ParamSpecs>(
  specs: S,
  raw: Record<string, unknown>,
  files: Record<string, UploadedFile>,
): ParamValues<S>;
