/** A page of a list: `page` counts from 1. */
export interface PageRequest {
  page: number;
  perPage: number;
}
export interface PageResult<T> {
  items: T[];
  total: number;
}
export declare const offsetOf: (request: PageRequest) => number;
/** Escapes LIKE wildcards so a search for `50%` finds the text `50%`. */
export declare const likePattern: (text: string) => string;
