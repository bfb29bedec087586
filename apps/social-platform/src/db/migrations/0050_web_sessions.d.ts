import type { Dialect } from '@repo/server-kit';
import type { Migration } from 'kysely';
/**
 * Login sessions of the web pages, and the web pages' server secrets (one row per name,
 * shared by every instance). Registered as `0050_web_sessions` in the platform's migration index.
 */
export declare const webSessionsMigration: (dialect: Dialect) => Migration;
