import type { FeedColumns } from './feed-columns.ts';
import type { FeedBound } from './filters.ts';
import { FlagColumn } from './flag-column.ts';
import { TimeColumn } from './time-column.ts';

/** A column's values as stored, read by index. */
export type NumberColumn = { readonly [i: number]: number };

/** A bound as a comparison of a column's stored values: a row passes when min <= values[row] <= max. */
export interface ColumnBound {
  values: NumberColumn;
  min: number;
  max: number;
}

/**
 * A filter's bound (in the filter's terms: epoch ms for the times) over the column's stored
 * values: a time column's codes with the bound turned into codes (time-column.ts), the small
 * whole-number columns as they are. Made once per query, so the loops compare stored values.
 */
export function columnBound(columns: FeedColumns, { column, min, max }: FeedBound): ColumnBound {
  const values = columns[column];
  if (values instanceof FlagColumn)
    throw new Error(`A bound on ${column} is its bitmap's (FeedClusters), not a comparison`);
  if (values instanceof TimeColumn) return { values: values.codes, ...values.bound(min, max) };
  return { values, min, max };
}
