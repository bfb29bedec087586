import type { Dialect } from '@repo/server-kit';
/** 64-bit integer column (epoch milliseconds): `bigint` in Postgres, `integer` in SQLite. */
export declare const int8Type: (dialect: Dialect) => 'bigint' | 'integer';
