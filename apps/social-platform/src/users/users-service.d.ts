import { AppError, type Clock } from '@repo/server-kit';
import { type Kysely, type Selectable } from 'kysely';
import { z } from 'zod';
import { type PageRequest, type PageResult } from '../db/paging.ts';
import type { DB, UserTable, Visibility } from '../db/schema.ts';
/** A user as the rest of the platform sees it: everything but the password hash. */
export type User = Omit<Selectable<UserTable>, 'password_hash'>;
export declare const userNameSchema: z.ZodString;
export declare const newUserSchema: z.ZodObject<
  {
    userName: z.ZodString;
    fullName: z.ZodString;
    email: z.ZodPipe<z.ZodString, z.ZodEmail>;
    password: z.ZodString;
    countryIso: z.ZodOptional<z.ZodString>;
    gender: z.ZodOptional<z.ZodString>;
  },
  z.core.$strip
>;
export type NewUser = z.input<typeof newUserSchema>;
/** Turns the first zod issue into a 400 a person can read: "email: must be an e-mail address". */
export declare function invalidInput(code: string, error: z.ZodError): AppError;
export declare const userNotFound: (what: string | number) => AppError;
/** Accounts: sign-up, look-up, login check, search. */
export declare class UsersService {
  private readonly db;
  private readonly clock;
  /** By id: run on most api.php calls, so compiled once. */
  private readonly selectById;
  constructor(db: Kysely<DB>, clock: Clock);
  create(input: NewUser): Promise<User>;
  findById(id: number): Promise<User | undefined>;
  /** Like findById, but a missing user is a 404 `user_not_found`. */
  getById(id: number): Promise<User>;
  findByUserName(userName: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** The user whose user name or e-mail is `login` and whose password matches, or undefined. */
  verifyPassword(login: string, password: string): Promise<User | undefined>;
  /** Users whose name or user name contains `query`, case-insensitively, by name. */
  search(query: string, page: PageRequest): Promise<PageResult<User>>;
  setFriendsVisibility(userId: number, visibility: Visibility): Promise<void>;
  setPicturePhoto(userId: number, photoId: number | null): Promise<void>;
}
