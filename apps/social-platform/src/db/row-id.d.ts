/** Largest value of the 32-bit integer id columns (SQLite stores more, Postgres refuses it). */
export declare const MAX_ROW_ID = 2147483647;
/** Whether `id` can name a row; anything else matches nothing, so look-ups need not ask. */
export declare const isRowId: (id: number) => boolean;
