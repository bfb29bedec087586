import { type Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import { type ApplicationsService } from '../applications/applications-service.ts';
import type { DB } from '../db/schema.ts';
import type { User, UsersService } from '../users/users-service.ts';
export interface AppAuthOptions {
  keyTtlMs: number;
  tokenTtlMs: number;
}
/** The app and user an api.php call acts for. */
export interface ApiCaller {
  tokenId: string;
  appId: number;
  userId: number;
  expiresAt: number;
  /** The token's user, as loaded with the token. */
  user: User;
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
export declare class AppAuthService {
  private readonly db;
  private readonly clock;
  private readonly users;
  private readonly apps;
  private readonly options;
  /** The token, its app's status and its user, by token hash: the one lookup behind every api.php call. */
  private readonly findToken;
  constructor(db: Kysely<DB>, clock: Clock, users: UsersService, apps: ApplicationsService, options: AppAuthOptions);
  /** A new one-time key for `userId` opening `appId`; the raw key is returned once and never stored. */
  issueAppKey(appId: number, userId: number): Promise<string>;
  /**
   * Trades a one-time key for a token. Consuming the key, revoking the app and user's
   * previous token and creating the new one are one transaction, so of any number of
   * concurrent calls exactly one succeeds. A replayed key revokes the token it produced.
   */
  exchangeKey(rawKey: string | undefined): Promise<IssuedToken>;
  /** The caller behind a token, or a 401 saying why not. */
  authenticate(rawToken: string | undefined): Promise<ApiCaller>;
  revokeToken(tokenId: string): Promise<void>;
  /** Revokes every live token a user gave an app (the user removed the app). */
  revokeAppForUser(appId: number, userId: number): Promise<void>;
  /** Deletes keys and tokens that expired more than `graceMs` ago; returns how many rows went. */
  purgeExpired(graceMs?: number): Promise<number>;
  private explainRefusedKey;
}
