import { type Dialect } from '@repo/server-kit';
import { type Migration } from 'kysely';
export declare const usersMigration: (dialect: Dialect) => Migration;
