import type { MigrationSet } from '@repo/server-kit';
/**
 * Every migration of the platform, one file each, run in name order on SQLite and Postgres.
 * 0001–0049 are the platform model's; 0050–0059 belong to the web pages (sessions …).
 * Append new ones; never edit one that has been released.
 */
export declare const migrations: MigrationSet;
