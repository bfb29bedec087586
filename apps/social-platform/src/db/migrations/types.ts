import type { Dialect } from '@repo/server-kit';

/** 64-bit integer column (epoch milliseconds): `bigint` in Postgres, `integer` in SQLite. */
export const int8Type = (dialect: Dialect) => (dialect === 'postgres' ? 'bigint' : 'integer');
