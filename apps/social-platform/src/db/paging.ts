import { type SelectQueryBuilder, sql } from 'kysely';

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

/** How many rows `query` matches. */
export async function countRows<DB, TB extends keyof DB>(query: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  // Kysely cannot name the selection of a generic builder; the row is exactly `{ total }`.
  const row = (await query.select(sql<number | string>`count(*)`.as('total')).executeTakeFirstOrThrow()) as {
    total: number | string;
  };
  return Number(row.total);
}

/**
 * One page of `base` and the number of all its rows, asked side by side. `base` holds the tables
 * and filters both share; `rows` adds the page's columns and order (limit and offset are added here).
 */
export async function pageOf<DB, TB extends keyof DB, Row>(
  base: SelectQueryBuilder<DB, TB, object>,
  page: PageRequest,
  rows: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
): Promise<PageResult<Row>> {
  const [items, total] = await Promise.all([
    rows(base).limit(page.perPage).offset(offsetOf(page)).execute(),
    countRows(base),
  ]);
  return { items, total };
}
