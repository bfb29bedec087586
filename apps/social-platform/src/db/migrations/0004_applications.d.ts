import { type Dialect } from '@repo/server-kit';
import { type Migration } from 'kysely';
/** Third-party applications, the one-time keys handed to them and the tokens they trade them for. */
export declare const applicationsMigration: (dialect: Dialect) => Migration;
