/** True when a write failed on a unique constraint (SQLite or Postgres). */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; message?: string } | undefined;
  return (
    candidate?.code === '23505' ||
    candidate?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    candidate?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** True when a write failed because a row it refers to is gone (SQLite or Postgres). */
export function isForeignKeyViolation(error: unknown): boolean {
  const candidate = error as { code?: string } | undefined;
  return candidate?.code === '23503' || candidate?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
