import type { Dialect } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';

/**
 * A fresh database for one benchmark run, the way the tests get theirs: a temporary data
 * directory, and on PostgreSQL a schema of its own (DATABASE_URL), both removed by `cleanup`.
 * `env` is what a Domain Intelligence configuration needs to use it.
 */
export async function benchDatabase(
  dialect: Dialect,
): Promise<{ env: Record<string, string>; dataDir: string; cleanup(): Promise<void> }> {
  const target = databaseTargets().find((candidate) => candidate.name === dialect);
  if (!target || target.skip) throw new Error(`No ${dialect} database here: ${target?.skip || 'unknown dialect'}`);
  const provisioned = await target.provision();
  return {
    dataDir: provisioned.dataDir,
    env: {
      DATA_DIR: provisioned.dataDir,
      ...(provisioned.databaseUrl && provisioned.postgresSchema
        ? { DATABASE_URL: provisioned.databaseUrl, POSTGRES_SCHEMA: provisioned.postgresSchema }
        : {}),
    },
    cleanup: () => provisioned.cleanup(),
  };
}
