import { baseEnvSchema, envFlag, loadConfig } from '@repo/server-kit';
import { z } from 'zod';

/**
 * Every environment variable of the Domain Intelligence API, validated once at start-up.
 * Defaults run the embedded mode: one process, SQLite under DATA_DIR, in-process jobs.
 */
export const envSchema = baseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public address of this API, used in links (docs, dashboard). */
  PUBLIC_URL: z.string().url().optional(),
  /** Sign-ups allowed per client IP per hour. */
  SIGNUP_RATE_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Calls to the key-less /v1/sample allowed per client IP per day. */
  SAMPLE_RATE_PER_DAY: z.coerce.number().int().min(1).default(20),
  /** Postgres schema of this service's tables (the platform keeps its own beside it). */
  POSTGRES_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('domain_intel'),
  /** Prefix of every Redis key this service writes. */
  REDIS_KEY_PREFIX: z.string().default('di:'),
  /** Seed a demo account and key at start (npm start). */
  DEMO: envFlag,
});

export type Config = z.infer<typeof envSchema>;

export function loadDomainIntelConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(envSchema, env);
}
