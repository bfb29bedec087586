import { randomUUID } from 'node:crypto';
import { type AppError, type Clock, digestsEqual, hashSecret, newSecret, prepareQuery } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import { type ApplicationsService, appNotFound, permissionsOf } from '../applications/applications-service.ts';
import type { GrantsService } from '../applications/grants-service.ts';
import { signatureMatches } from '../applications/param-signature.ts';
import { covers, decodePermissions, type Permission } from '../applications/permissions.ts';
import { RowCache } from '../db/row-cache.ts';
import type { DB } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { QUALIFIED_USER_COLUMNS } from '../users/user-columns.ts';
import type { User, UsersService } from '../users/users-service.ts';

const KEY_PREFIX = 'spk_';
const TOKEN_PREFIX = 'spt_';
/** Prefix + 32 bytes in base64url (43 characters). */
const KEY_FORMAT = /^spk_[A-Za-z0-9_-]{43}$/;
const TOKEN_FORMAT = /^spt_[A-Za-z0-9_-]{43}$/;

export interface AppAuthOptions {
  keyTtlMs: number;
  tokenTtlMs: number;
  /**
   * How long (ms) a token's row (token, app, grant, user) may be reused without asking the
   * database (TOKEN_CACHE_TTL_MS; 0: every call asks). See `forgetCachedTokens`.
   */
  tokenCacheTtlMs: number;
}

/** The app and user an api.php call acts for. */
export interface ApiCaller {
  tokenId: string;
  appId: number;
  userId: number;
  expiresAt: number;
  /** The token's user, as loaded with the token. */
  user: User;
  /** What the user granted that the app still asks for: the methods and fields this call may use. */
  permissions: Permission[];
}

/** Tokens whose rows an instance keeps at most (then it starts over: a cache, not a store). */
const TOKEN_CACHE_MAX_ENTRIES = 10_000;

type TokenRow = Awaited<ReturnType<AppAuthService['findToken']>>[number];

/** What a token's row says, worked out once per row read (the cache keeps this, not the raw row). */
interface TokenRecord {
  tokenHash: string;
  revokedAt: number | null;
  appStatus: string;
  caller: ApiCaller;
}

export interface IssuedToken {
  token: string;
  expiresAt: number;
  appId: number;
  userId: number;
}

/**
 * The Application API's credentials. The canvas page issues a one-time key bound to an
 * app and a user; the app trades it at token.php for a token, once; every api.php call
 * presents the token. Only SHA-256 digests of keys and tokens are stored.
 */
export class AppAuthService {
  /** The token, its app's status and its user, by token hash: the one lookup behind every api.php call. */
  private readonly findToken;
  /** findToken's rows, as records, by token hash, for `tokenCacheTtlMs` (expiry and revocation are still checked on every call). */
  readonly #tokenRecords: RowCache<string, TokenRecord>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly users: UsersService,
    private readonly apps: ApplicationsService,
    private readonly grants: GrantsService,
    private readonly options: AppAuthOptions,
  ) {
    this.findToken = prepareQuery(db, ['token_hash'], (tokenHash: string) =>
      db
        .selectFrom('api_tokens')
        .innerJoin('applications', 'applications.id', 'api_tokens.app_id')
        .innerJoin('users', 'users.id', 'api_tokens.user_id')
        .leftJoin('app_grants', (join) =>
          join
            .onRef('app_grants.app_id', '=', 'api_tokens.app_id')
            .onRef('app_grants.user_id', '=', 'api_tokens.user_id'),
        )
        .select([
          'api_tokens.id as token_id',
          'api_tokens.token_hash',
          'api_tokens.app_id',
          'api_tokens.expires_at',
          'api_tokens.revoked_at',
          'applications.status as app_status',
          'applications.permissions as app_permissions',
          'app_grants.permissions as granted_permissions',
          ...QUALIFIED_USER_COLUMNS,
        ])
        .where('api_tokens.token_hash', '=', tokenHash),
    );
    this.#tokenRecords = new RowCache(options.tokenCacheTtlMs, TOKEN_CACHE_MAX_ENTRIES);
  }

  /**
   * Drops every cached token row. The context calls it whenever this process writes a table the
   * rows are made of (tokens, applications, grants, users: TableWritesPlugin), so a revocation,
   * a disabled app, a withdrawn grant or a profile change made here applies to the next call;
   * made by another process (instance, CLI), within `tokenCacheTtlMs`.
   */
  forgetCachedTokens(): void {
    this.#tokenRecords.clear();
  }

  readonly #readTokenRecord = async (tokenHash: string) => recordOf(await this.findToken(tokenHash));

  /**
   * A new one-time key for `userId` opening `appId`; the raw key is returned once and never
   * stored. No key before consent: the user must have granted every permission the app asks
   * for, and the app must be one they may open (published, or they develop or test it).
   */
  async issueAppKey(appId: number, userId: number): Promise<string> {
    const app = await this.apps.getById(appId);
    if (app.status !== 'active') throw appDisabled(appId);
    await this.users.getById(userId);
    if (!(await this.apps.canOpen(app, userId))) {
      throw appError(
        'app_in_development',
        `APP ID ${appId} is in development mode: only its developer and testers may open it until it is published.`,
      );
    }
    if (!covers(await this.grants.permissionsOf(appId, userId), permissionsOf(app))) {
      throw appError('consent_required', `The user has not allowed everything APP ID ${appId} asks for.`);
    }
    const key = newSecret(KEY_PREFIX);
    const now = this.clock.now();
    await this.db
      .insertInto('app_keys')
      .values({
        key_hash: hashSecret(key),
        app_id: appId,
        user_id: userId,
        created_at: now,
        expires_at: now + this.options.keyTtlMs,
        used_at: null,
        token_id: null,
      })
      .execute();
    return key;
  }

  /**
   * The APP ID of a key that can still be exchanged, or undefined: token.php counts only
   * these against the app's limit, so unknown, used or expired keys never use it up.
   */
  async appOfUsableKey(rawKey: string): Promise<number | undefined> {
    if (!KEY_FORMAT.test(rawKey)) return undefined;
    const row = await this.db
      .selectFrom('app_keys')
      .select('app_id')
      .where('key_hash', '=', hashSecret(rawKey))
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return row?.app_id;
  }

  /**
   * Trades a one-time key for a token: one token per exchange, so a user who opens the app
   * on two devices has two working tokens. Consuming the key and creating the token are one
   * transaction, so of any number of concurrent calls with one key exactly one succeeds.
   * A replayed key revokes the token that key produced, and no other.
   *
   * `sig`, when given, must be the HMAC of the key with its app's secret (param-signature.ts), and
   * an app that requires a signed exchange must give it; either refusal comes before the key is
   * consumed, so whoever sees a key without the secret cannot use it up.
   */
  async exchangeKey(rawKey: string | undefined, sig?: string): Promise<IssuedToken> {
    if (rawKey === undefined || rawKey === '') {
      throw appError('missing_key', 'The key parameter is required.');
    }
    if (!KEY_FORMAT.test(rawKey)) throw invalidKey();
    const keyHash = hashSecret(rawKey);
    await this.#checkSignature(keyHash, rawKey, sig);
    const now = this.clock.now();
    const token = newSecret(TOKEN_PREFIX);
    const tokenId = randomUUID();
    const expiresAt = now + this.options.tokenTtlMs;

    const issued = await this.db.transaction().execute(async (trx) => {
      const consumed = await trx
        .updateTable('app_keys')
        .set({ used_at: now, token_id: tokenId })
        .where('key_hash', '=', keyHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['app_id', 'user_id'])
        .executeTakeFirst();
      if (!consumed) return undefined;
      const app = await trx
        .selectFrom('applications')
        .select('status')
        .where('id', '=', consumed.app_id)
        .executeTakeFirst();
      if (!app) throw appNotFound(consumed.app_id);
      if (app.status !== 'active') throw appDisabled(consumed.app_id);
      await trx
        .insertInto('api_tokens')
        .values({
          id: tokenId,
          token_hash: hashSecret(token),
          app_id: consumed.app_id,
          user_id: consumed.user_id,
          created_at: now,
          expires_at: expiresAt,
          revoked_at: null,
        })
        .execute();
      return { token, expiresAt, appId: consumed.app_id, userId: consumed.user_id };
    });
    if (issued) return issued;
    throw await this.explainRefusedKey(keyHash, now);
  }

  /** Refuses an exchange whose `sig` is wrong, or missing for an app that requires it; an unknown key passes on to be refused as such. */
  async #checkSignature(keyHash: string, rawKey: string, sig: string | undefined): Promise<void> {
    const app = await this.db
      .selectFrom('app_keys')
      .innerJoin('applications', 'applications.id', 'app_keys.app_id')
      .select(['applications.id', 'applications.secret_sealed', 'applications.require_signed_exchange'])
      .where('app_keys.key_hash', '=', keyHash)
      .executeTakeFirst();
    if (!app) return;
    if (sig === undefined || sig === '') {
      if (app.require_signed_exchange !== 1) return;
      throw appError(
        'signature_required',
        `APP ID ${app.id} requires a signed exchange: send sig, the HMAC-SHA256 of the key with the app secret.`,
      );
    }
    if (app.secret_sealed === null || !signatureMatches(this.apps.secretOf(app), rawKey, sig)) {
      throw appError('invalid_signature', 'sig is not the HMAC-SHA256 of this key with the app secret.');
    }
  }

  /** The caller behind a token, or a 401 saying why not. */
  async authenticate(rawToken: string | undefined): Promise<ApiCaller> {
    if (rawToken === undefined || rawToken === '') {
      throw appError('missing_token', 'The token parameter is required; get one from token.php.');
    }
    if (!TOKEN_FORMAT.test(rawToken)) throw invalidToken();
    const tokenHash = hashSecret(rawToken);
    const record = await this.#tokenRecords.get(tokenHash, this.#readTokenRecord);
    if (!record || !digestsEqual(record.tokenHash, tokenHash)) throw invalidToken();
    return this.#callerOf(record);
  }

  /**
   * `authenticate` without a promise when the token's row is cached (the common call): the same
   * checks, the same errors; undefined when the row is not cached or the token is malformed, and
   * `authenticate` then answers.
   */
  cachedCaller(rawToken: string): ApiCaller | undefined {
    if (!TOKEN_FORMAT.test(rawToken)) return undefined;
    const tokenHash = hashSecret(rawToken);
    // Found by its hash as the key of a Map: the row's hash is this one, no comparison needed.
    const record = this.#tokenRecords.fresh(tokenHash);
    return record && this.#callerOf(record);
  }

  /** The caller of a token's row, or the 401/403 saying why it may not call. */
  #callerOf(record: TokenRecord): ApiCaller {
    if (record.revokedAt !== null) {
      throw appError('token_revoked', 'This token has been revoked; open the app again for a new one.');
    }
    const { caller } = record;
    if (caller.expiresAt <= this.clock.now()) {
      throw appError('token_expired', 'This token has expired; open the app again for a new one.');
    }
    if (record.appStatus !== 'active') throw appDisabled(caller.appId);
    return caller;
  }

  async revokeToken(tokenId: string): Promise<void> {
    await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: this.clock.now() })
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * The user removes an app: the grant goes and every token they gave it dies at once. Returns
   * whether there was a grant. The app is told by `AppRemoval` (callbacks/), the flow pages call.
   */
  async removeAppForUser(appId: number, userId: number): Promise<boolean> {
    const hadGrant = await this.grants.remove(appId, userId);
    await this.revokeAppForUser(appId, userId);
    return hadGrant;
  }

  /** Revokes every live token of an app (its developer disabled it). */
  async revokeAllForApp(appId: number): Promise<void> {
    await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: this.clock.now() })
      .where('app_id', '=', appId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every live token a user gave an app. */
  async revokeAppForUser(appId: number, userId: number): Promise<void> {
    await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: this.clock.now() })
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Deletes keys and tokens that expired more than `graceMs` ago; returns how many rows went. */
  async purgeExpired(graceMs = 86_400_000): Promise<number> {
    const before = this.clock.now() - graceMs;
    const keys = await this.db.deleteFrom('app_keys').where('expires_at', '<', before).executeTakeFirst();
    const tokens = await this.db.deleteFrom('api_tokens').where('expires_at', '<', before).executeTakeFirst();
    return Number(keys.numDeletedRows) + Number(tokens.numDeletedRows);
  }

  private async explainRefusedKey(keyHash: string, now: number): Promise<AppError> {
    const key = await this.db
      .selectFrom('app_keys')
      .select(['key_hash', 'used_at', 'token_id', 'expires_at'])
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
    if (!key || !digestsEqual(key.key_hash, keyHash)) return invalidKey();
    if (key.used_at !== null) {
      if (key.token_id) await this.revokeToken(key.token_id);
      return appError(
        'key_already_used',
        'This key has already been exchanged; the token it gave has been revoked. Open the app again for a new key.',
      );
    }
    if (key.expires_at <= now) {
      return appError('key_expired', 'This key has expired; open the app again for a new one.');
    }
    return invalidKey();
  }
}

/** The caller a token's row describes, with the permissions it may use; undefined when there is no row. */
function recordOf([row]: TokenRow[]): TokenRecord | undefined {
  if (!row) return undefined;
  const {
    token_id,
    token_hash,
    app_id,
    expires_at,
    revoked_at,
    app_status,
    app_permissions,
    granted_permissions,
    ...user
  } = row;
  // An app that drops a permission loses it at once; one it adds needs the user's consent first.
  const granted = decodePermissions(granted_permissions);
  const permissions = decodePermissions(app_permissions).filter((permission) => granted.includes(permission));
  return {
    tokenHash: token_hash,
    revokedAt: revoked_at,
    appStatus: app_status,
    // Shared by every call of the token while cached: frozen so that no call can change it for the others.
    caller: Object.freeze({
      tokenId: token_id,
      appId: app_id,
      userId: user.id,
      expiresAt: expires_at,
      user: Object.freeze(user),
      permissions: Object.freeze(permissions) as Permission[],
    }),
  };
}

const invalidKey = () => appError('invalid_key', 'The key is not valid.');
const invalidToken = () => appError('invalid_token', 'The token is not valid.');
const appDisabled = (appId: number) =>
  appError('app_disabled', `The application with APP ID ${appId} has been disabled.`);
