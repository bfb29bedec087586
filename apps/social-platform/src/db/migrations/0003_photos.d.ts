import { type Dialect } from '@repo/server-kit';
import { type Migration } from 'kysely';
/** Photos (album photos and profile pictures), their stored files, and the user's picture. */
export declare const photosMigration: (dialect: Dialect) => Migration;
