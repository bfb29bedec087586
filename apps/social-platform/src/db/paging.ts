/** A page of a list: `page` counts from 1. */
export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageResult<T> {
  items: T[];
  total: number;
}

export const offsetOf = (request: PageRequest): number => (request.page - 1) * request.perPage;

/** Escapes LIKE wildcards so a search for `50%` finds the text `50%`. */
export const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
