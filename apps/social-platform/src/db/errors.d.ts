/** True when a write failed on a unique constraint (SQLite or Postgres). */
export declare function isUniqueViolation(error: unknown): boolean;
