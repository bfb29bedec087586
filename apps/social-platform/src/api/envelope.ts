import type { PublicError } from '@repo/server-kit';

/** The `api` part of every answer. */
export interface ApiPaging {
  total: number;
  pages: number;
  current_page: number;
}

export const PER_PAGE = 10;

/** Our rule for methods that return one value (an object or an integer). */
export const SINGLE_VALUE: ApiPaging = { total: 1, pages: 1, current_page: 1 };

/** Errors carry no items. */
const NO_ITEMS: ApiPaging = { total: 0, pages: 0, current_page: 0 };

export function listPaging(total: number, page: number): ApiPaging {
  return { total, pages: Math.ceil(total / PER_PAGE), current_page: page };
}

export function envelope(api: ApiPaging, output: unknown) {
  return { api, output };
}

/** `{"api": {0, 0, 0}, "output": {"error": {"code", "message", …details}}}`. */
export function renderApiError(error: PublicError) {
  return envelope(NO_ITEMS, { error: { code: error.code, message: error.message, ...error.details } });
}
