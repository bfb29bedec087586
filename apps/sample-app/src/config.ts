import { z } from 'zod';

/**
 * Every setting of the sample app, validated once at start-up. The defaults match the
 * platform's own (`npm start` runs the platform on :3100 and this app on :3200).
 */
export const sampleAppEnvSchema = z.object({
  /** `production` caches templates. */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Address the sample app listens on. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Port of the sample app; its canvas URL is http://HOST:PORT/. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3200),
  /** Where the platform lives: token.php and api.php are resolved against it, and only it may frame this app. */
  PLATFORM_URL: z
    .string()
    .url()
    .refine((value) => /^https?:\/\//.test(value), 'must be an http:// or https:// URL')
    .default('http://127.0.0.1:3100'),
  /**
   * The app secret the platform showed when the app was registered (or its secret last changed).
   * Set, the app refuses launches whose `sign` does not check out or that are older than 5
   * minutes, signs every token.php exchange (`sig`, so the app can require a signed exchange)
   * and takes the platform's callbacks at /platform/events. Unset (a first try on a laptop), it
   * trades keys unsigned and says so at start.
   */
  APP_SECRET: z.string().min(1).optional(),
  /** How long a session (and the platform token it holds) is kept after the app was opened. */
  SESSION_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  /** Largest photo accepted for upload, in megabytes. */
  MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(50).default(10),
  /** Timeout of each call to the platform, in milliseconds. */
  PLATFORM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** pino log level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Set behind a TLS-terminating proxy so the app sees https and sets Secure cookies. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value) => value === '1' || value === 'true'),
});

export type SampleAppConfig = z.infer<typeof sampleAppEnvSchema>;

/** A configuration that does not validate: every bad variable, by name. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

export function loadSampleAppConfig(env: NodeJS.ProcessEnv = process.env): SampleAppConfig {
  const result = sampleAppEnvSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
  }
  return result.data;
}
