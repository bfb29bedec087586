import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createDatabase, type Database } from '../database.ts';

/** One database engine a test suite runs against. */
export interface DatabaseTarget {
  name: 'sqlite' | 'postgres';
  /** Set when the engine is not available here; node:test prints it as the skip reason. */
  skip: string | false;
  /** A fresh, empty database for one test run, and how to remove it. */
  provision(): Promise<ProvisionedDatabase>;
}

export interface ProvisionedDatabase {
  databaseUrl: string | undefined;
  postgresSchema: string | undefined;
  dataDir: string;
  cleanup(): Promise<void>;
}

/**
 * The provisioned database opened as a service opens its own (createDatabase): the PostgreSQL
 * schema when there is one, else `sqliteFile` under the run's data directory.
 */
export function openProvisioned<DB>(
  provisioned: ProvisionedDatabase,
  options: { sqliteFile: string; poolSize?: number },
): Database<DB> {
  return createDatabase<DB>({
    databaseUrl: provisioned.databaseUrl,
    dataDir: provisioned.dataDir,
    postgresSchema: provisioned.postgresSchema,
    ...options,
  });
}

const warned = new Set<string>();
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  process.stderr.write(`\n!!! ${message}\n\n`);
}

export function tempDir(label = 'test'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), `${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * SQLite always; PostgreSQL when DATABASE_URL is set. Each provisioned Postgres database
 * is a schema of its own, dropped afterwards, so parallel test files never collide.
 */
export function databaseTargets(): DatabaseTarget[] {
  const url = process.env.DATABASE_URL;
  if (!url) warnOnce('DATABASE_URL is not set: the PostgreSQL variants of the database tests are SKIPPED.');
  return [
    {
      name: 'sqlite',
      skip: false,
      async provision() {
        const temp = tempDir('sqlite');
        return {
          databaseUrl: undefined,
          postgresSchema: undefined,
          dataDir: temp.dir,
          cleanup: async () => temp.remove(),
        };
      },
    },
    {
      name: 'postgres',
      skip: url ? false : 'DATABASE_URL is not set',
      async provision() {
        if (!url) throw new Error('DATABASE_URL is not set');
        const schema = `test_${randomBytes(6).toString('hex')}`;
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`create schema ${schema}`);
        await admin.end();
        const temp = tempDir('pg');
        return {
          databaseUrl: url,
          postgresSchema: schema,
          dataDir: temp.dir,
          async cleanup() {
            const client = new pg.Client({ connectionString: url });
            await client.connect();
            await client.query(`drop schema if exists ${schema} cascade`);
            await client.end();
            temp.remove();
          },
        };
      },
    },
  ];
}

export interface RedisTarget {
  skip: string | false;
  url: string | undefined;
  /** A key prefix unique to this run, and a cleanup that deletes every key under it. */
  provision(): { keyPrefix: string; cleanup(): Promise<void> };
}

export function redisTarget(): RedisTarget {
  const url = process.env.REDIS_URL;
  if (!url) warnOnce('REDIS_URL is not set: the Redis variants of the tests are SKIPPED.');
  return {
    skip: url ? false : 'REDIS_URL is not set',
    url,
    provision() {
      const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
      return {
        keyPrefix,
        async cleanup() {
          if (!url) return;
          const redis = new Redis(url, { maxRetriesPerRequest: 1 });
          try {
            let cursor = '0';
            do {
              const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
              cursor = next;
              if (keys.length > 0) await redis.del(...keys);
            } while (cursor !== '0');
          } finally {
            redis.disconnect();
          }
        },
      };
    },
  };
}
