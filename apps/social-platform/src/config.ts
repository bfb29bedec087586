import { availableParallelism } from 'node:os';
import { baseEnvSchema, envFlag, loadConfig, portNumber } from '@repo/server-kit';
import { z } from 'zod';

const MB = 1024 * 1024;

/** An absolute http(s) URL with no trailing slash, so paths can be appended with `/`. */
const baseUrl = z
  .string()
  .url()
  .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
  .transform((value) => value.replace(/\/+$/, ''));

/**
 * Every environment variable of the social platform, validated once at start-up.
 * Defaults run the embedded mode: one process, SQLite and media files under DATA_DIR.
 */
export const envSchema = baseEnvSchema.extend({
  PORT: portNumber(3100),
  /** Public address of the platform; every URL in API outputs is built from it. */
  PUBLIC_URL: baseUrl.default('http://127.0.0.1:3100'),
  /** Canvas URL of the sample third-party app that `demo seed` installs. */
  SAMPLE_APP_URL: z.string().url().default('http://127.0.0.1:3200/'),
  /** Postgres schema of this service's tables (domain-intel keeps its own beside it). */
  POSTGRES_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('social_platform'),
  /** Prefix of every Redis key this service writes (rate-limit counters). */
  REDIS_KEY_PREFIX: z.string().default('sp:'),
  /** Lifetime of a one-time key handed to an app in its canvas URL. */
  KEY_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Lifetime of an API token obtained from token.php. */
  TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(3600),
  /** Largest accepted upload, in bytes. */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(200 * MB)
    .default(20 * MB),
  /**
   * Lifetime of the signed URLs of friends-only and private photos (API outputs and pages). A URL
   * works for one to two lifetimes (expiries are rounded so repeated pages reuse URLs and caches).
   */
  MEDIA_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(3600),
  /** Largest accepted image, in pixels (width × height), checked before decoding. */
  UPLOAD_MAX_PIXELS: z.coerce.number().int().min(1).default(50_000_000),
  /**
   * Uploads resized at the same time; others wait their turn. Each 12 MP upload holds about
   * 80 MB while its seven sizes are made, so this bounds memory under a burst of uploads.
   */
  IMAGE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(Math.max(1, availableParallelism())),
  /**
   * How long (ms) an instance may reuse a token's row (token, app, grant, user) without asking the
   * database. Changes made on the same instance apply at once; made elsewhere, within this time. 0: never reused.
   */
  TOKEN_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /**
   * How long (ms) an instance may reuse the row of a user api.php asks about (`user_id`: user.getUser,
   * friend.*, photo.getPhotos …; the token's own user comes with the token's row, TOKEN_CACHE_TTL_MS) without
   * asking the database. Changes made on the same instance apply at once; made elsewhere, within this time.
   * 0: never reused.
   */
  USER_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /**
   * How often (ms) an instance writes the api.php usage counts it keeps in memory (the developer
   * console's calls and errors per method and day); also on graceful shutdown. A crash loses at most
   * this long of counts. Rate limits are counted apart and are not affected. 0: only on shutdown
   * and when the console is opened.
   */
  USAGE_FLUSH_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** api.php calls allowed per app and user per window (all of that user's tokens for the app together). */
  API_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  /** Length of the api.php rate-limit window, in seconds. */
  API_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /**
   * Time a client has to send a whole request, upload included; a stalled body is answered
   * 408 `request_timeout` then. Allow for the slowest uploads you accept (20 MB at 100 KB/s: 200 s).
   */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /**
   * Successful token.php exchanges allowed per app per window. Every exchange of an app comes
   * from its own server, so this is per app, not per address; keys that fail are not counted.
   */
  TOKEN_EXCHANGE_LIMIT: z.coerce.number().int().min(1).default(10_000),
  /** Length of the token.php window, in seconds. */
  TOKEN_EXCHANGE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** notification.add calls allowed per app and user per window (a user is not flooded by one app). */
  APP_NOTIFICATION_LIMIT: z.coerce.number().int().min(1).default(10),
  /** Length of the notification.add window, in seconds (default an hour). */
  APP_NOTIFICATION_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
  /**
   * The key app secrets are sealed with (AES-256-GCM): 64 hex digits or 43 base64url characters.
   * Unset: a key file made at the first start, `DATA_DIR/app-secret.key` (readable by its owner
   * only). Every instance must use the same key; keep it out of database backups.
   */
  APP_SECRET_KEY: z.string().optional(),
  /** Allow http and loopback app callback URLs (tests, the demo's sample app). Private ranges stay refused. */
  CALLBACK_ALLOW_INSECURE: envFlag,
  /** Time an app's callback URL has to answer one event, ms. */
  CALLBACK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Seed the demo users, data and sample app at start (npm start). */
  DEMO: envFlag,
});

export type Config = z.infer<typeof envSchema>;

export function loadPlatformConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(envSchema, env);
}
