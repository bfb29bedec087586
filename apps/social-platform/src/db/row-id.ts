/** Largest value of the 32-bit integer id columns (SQLite stores more, Postgres refuses it). */
export const MAX_ROW_ID = 2_147_483_647;

/** Whether `id` can name a row; anything else matches nothing, so look-ups need not ask. */
export const isRowId = (id: number): boolean => Number.isInteger(id) && id >= 1 && id <= MAX_ROW_ID;
