import { type AppError, type Clock, prepareQuery } from '@repo/server-kit';
import { type Kysely, type Selectable, sql } from 'kysely';
import { z } from 'zod';
import { isUniqueViolation } from '../db/errors.ts';
import { likePattern, type PageRequest, type PageResult, pageOf } from '../db/paging.ts';
import { RowCache } from '../db/row-cache.ts';
import { isRowId } from '../db/row-id.ts';
import type { DB, UserTable, Visibility } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { USER_COLUMNS } from './user-columns.ts';

/** A user as the rest of the platform sees it: everything but the password hash. */
export type User = Omit<Selectable<UserTable>, 'password_hash'>;

export const userNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_.-]{1,30}[a-z0-9]$/, {
    message: 'must be 3–32 characters: letters, digits, and . _ - inside',
  });

export const newUserSchema = z.object({
  userName: userNameSchema,
  fullName: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'must be an e-mail address' })),
  password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
  countryIso: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code')
    .optional(),
  gender: z.string().trim().min(1).max(32, 'must be at most 32 characters').optional(),
});

export type NewUser = z.input<typeof newUserSchema>;

/** What a person may change on their profile (the user name stays: it is their profile's address). */
export const profileSchema = newUserSchema.pick({ fullName: true, countryIso: true, gender: true });
export type ProfileChanges = z.input<typeof profileSchema>;

/** Turns the first zod issue into a 400 a person can read: "email: must be an e-mail address". */
export function invalidInput(
  code: 'invalid_user' | 'invalid_notification' | 'invalid_application',
  error: z.ZodError,
): AppError {
  const issue = error.issues[0];
  const field = issue?.path.join('.') ?? 'input';
  return appError(code, `${field}: ${issue?.message ?? 'is invalid'}`);
}

export const userNotFound = (what: string | number) =>
  appError('user_not_found', `There is no user ${typeof what === 'number' ? `with id ${what}` : what}.`);

/** Users whose rows an instance keeps for api.php at most (then it starts over). */
const USER_CACHE_MAX_ENTRIES = 10_000;

/** Accounts: sign-up, look-up, login check, search. */
export class UsersService {
  /** By id: run on most api.php calls, so compiled once. */
  private readonly selectById;
  /** Rows api.php read by id, for `cacheTtlMs` (see `findRecent`). */
  readonly #recent: RowCache<number, User>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    /** How long (ms) api.php may reuse a user's row (USER_CACHE_TTL_MS; 0: never). */
    cacheTtlMs = 0,
  ) {
    this.selectById = prepareQuery(db, [0], (id: number) =>
      db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id),
    );
    this.#recent = new RowCache(cacheTtlMs, USER_CACHE_MAX_ENTRIES);
  }

  async create(input: NewUser): Promise<User> {
    const parsed = newUserSchema.safeParse(input);
    if (!parsed.success) throw invalidInput('invalid_user', parsed.error);
    const { userName, fullName, email, password, countryIso, gender } = parsed.data;
    if (await this.#userNameTaken(userName)) throw userNameTaken(userName);
    if (await this.findByEmail(email)) throw emailTaken(email);
    try {
      const row = await this.db
        .insertInto('users')
        .values({
          user_name: userName,
          full_name: fullName,
          email,
          password_hash: await hashPassword(password),
          country_iso: countryIso ?? null,
          gender: gender ?? null,
          joined: this.clock.now(),
          friends_visibility: 'public',
        })
        .returning(USER_COLUMNS)
        .executeTakeFirstOrThrow();
      return row;
    } catch (error) {
      // Two sign-ups with one name can both pass the checks above; the constraint decides.
      if (isUniqueViolation(error)) {
        if (await this.#userNameTaken(userName)) throw userNameTaken(userName);
        throw emailTaken(email);
      }
      throw error;
    }
  }

  async findById(id: number): Promise<User | undefined> {
    if (!isRowId(id)) return undefined;
    return (await this.selectById(id))[0];
  }

  /** Like findById, but a missing user is a 404 `user_not_found`. */
  async getById(id: number): Promise<User> {
    const user = await this.findById(id);
    if (!user) throw userNotFound(id);
    return user;
  }

  /**
   * Like getById, but the row may be up to `cacheTtlMs` old: api.php's reads of other users
   * (`user_id`). Every write of `users` in this process drops these rows (`forgetRecent`), so
   * only changes made by another process (instance, CLI) may take that long to show.
   */
  async getRecent(id: number): Promise<User> {
    const user = await this.#recent.get(id, this.#readFrozen);
    if (!user) throw userNotFound(id);
    return user;
  }

  /** Shared by the calls that reuse it: frozen so that none can change it for the others. */
  readonly #readFrozen = async (id: number) => {
    const user = await this.findById(id);
    return user && Object.freeze(user);
  };

  forgetRecent(): void {
    this.#recent.clear();
  }

  /**
   * The real user of this user name (the web pages, the CLI): a test user is never found by name,
   * so no page of a real user reaches one (see test-users.ts).
   */
  findByUserName(userName: string): Promise<User | undefined> {
    return this.db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where('user_name', '=', userName.trim().toLowerCase())
      .where('test_app_id', 'is', null)
      .executeTakeFirst();
  }

  /** Whether anyone has the user name, test users included (user names are unique across both). */
  async #userNameTaken(userName: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('user_name', '=', userName.trim().toLowerCase())
      .executeTakeFirst();
    return row !== undefined;
  }

  findByEmail(email: string): Promise<User | undefined> {
    return this.db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
  }

  /** The user whose user name or e-mail is `login` and whose password matches, or undefined. */
  async verifyPassword(login: string, password: string): Promise<User | undefined> {
    const normalized = login.trim().toLowerCase();
    const row = await this.db
      .selectFrom('users')
      .select([...USER_COLUMNS, 'password_hash'])
      .where((eb) => eb.or([eb('user_name', '=', normalized), eb('email', '=', normalized)]))
      // Test users never sign in: they exist for their app only, opened from its console.
      .where('test_app_id', 'is', null)
      .executeTakeFirst();
    if (!row) {
      // Spend the same time as a real check so response times do not reveal which logins exist.
      await verifyPassword(password, await dummyHash());
      return undefined;
    }
    if (!(await verifyPassword(password, row.password_hash))) return undefined;
    const { password_hash: _hash, ...user } = row;
    return user;
  }

  /** Users whose name or user name contains `query`, case-insensitively, by name. */
  async search(query: string, page: PageRequest): Promise<PageResult<User>> {
    const pattern = likePattern(query.trim());
    const base = this.db
      .selectFrom('users')
      // An explicit ESCAPE: SQLite has no default escape character for LIKE.
      .where(
        sql<boolean>`(lower(full_name) like ${pattern} escape '\\' or lower(user_name) like ${pattern} escape '\\')`,
      )
      // Test users are never found by real users' searches.
      .where('test_app_id', 'is', null);
    return pageOf(base, page, (query) => query.select(USER_COLUMNS).orderBy('full_name').orderBy('id'));
  }

  /** Changes the name, country and gender of `userId`; an absent country or gender becomes unset (null). */
  async updateProfile(userId: number, changes: ProfileChanges): Promise<User> {
    const parsed = profileSchema.safeParse(changes);
    if (!parsed.success) throw invalidInput('invalid_user', parsed.error);
    const { fullName, countryIso, gender } = parsed.data;
    await this.db
      .updateTable('users')
      .set({ full_name: fullName, country_iso: countryIso ?? null, gender: gender ?? null })
      .where('id', '=', userId)
      .execute();
    return this.getById(userId);
  }

  async setFriendsVisibility(userId: number, visibility: Visibility): Promise<void> {
    if (!['public', 'friends', 'private'].includes(visibility)) {
      throw appError('invalid_visibility', 'Visibility must be public, friends or private.');
    }
    await this.db.updateTable('users').set({ friends_visibility: visibility }).where('id', '=', userId).execute();
  }

  /** Makes `photoId` the user's profile picture (photos/ stores the picture, then calls this). */
  async setPicturePhoto(userId: number, photoId: number | null): Promise<void> {
    await this.db.updateTable('users').set({ picture_photo_id: photoId }).where('id', '=', userId).execute();
  }

  /**
   * No user keeps `photoId` as their picture any more: photos/ calls it before deleting the photo,
   * inside the transaction that deletes it (`db`), so no user points at a photo that is gone.
   */
  async clearPicturePhoto(photoId: number, db: Kysely<DB> = this.db): Promise<void> {
    await db.updateTable('users').set({ picture_photo_id: null }).where('picture_photo_id', '=', photoId).execute();
  }
}

let dummy: Promise<string> | undefined;
/** A valid hash of a random password, checked against when the login does not exist. */
const dummyHash = () => {
  dummy ??= hashPassword(`dummy-${Math.random()}`);
  return dummy;
};

const userNameTaken = (userName: string) =>
  appError('user_name_taken', `The user name "${userName}" is already taken.`);
const emailTaken = (email: string) => appError('email_taken', `An account with the e-mail ${email} already exists.`);
