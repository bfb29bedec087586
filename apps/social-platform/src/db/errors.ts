/** True when a write failed on a unique constraint (SQLite or Postgres). */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; message?: string } | undefined;
  return (
    candidate?.code === '23505' ||
    candidate?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    candidate?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
