import type { PublicError } from '@repo/server-kit';
/** The `api` part of every answer. */
export interface ApiPaging {
  total: number;
  pages: number;
  current_page: number;
}
export declare const PER_PAGE = 10;
/** Our rule for methods that return one value (an object or an integer). */
export declare const SINGLE_VALUE: ApiPaging;
export declare function listPaging(total: number, page: number): ApiPaging;
export declare function envelope(
  api: ApiPaging,
  output: unknown,
): {
  api: ApiPaging;
  output: unknown;
};
/** `{"api": {0, 0, 0}, "output": {"error": {"code", "message", …details}}}`. */
export declare function renderApiError(error: PublicError): {
  api: ApiPaging;
  output: unknown;
};
