import { z } from 'zod';
/**
 * Every environment variable of the social platform, validated once at start-up.
 * Defaults run the embedded mode: one process, SQLite and media files under DATA_DIR.
 */
export declare const envSchema: z.ZodObject<
  {
    NODE_ENV: z.ZodDefault<
      z.ZodEnum<{
        development: 'development';
        production: 'production';
        test: 'test';
      }>
    >;
    HOST: z.ZodDefault<z.ZodString>;
    DATA_DIR: z.ZodDefault<z.ZodString>;
    DATABASE_URL: z.ZodUnion<[z.ZodOptional<z.ZodString>, z.ZodPipe<z.ZodLiteral<''>, z.ZodTransform<undefined, ''>>]>;
    REDIS_URL: z.ZodUnion<[z.ZodOptional<z.ZodString>, z.ZodPipe<z.ZodLiteral<''>, z.ZodTransform<undefined, ''>>]>;
    LOG_LEVEL: z.ZodDefault<
      z.ZodEnum<{
        error: 'error';
        fatal: 'fatal';
        warn: 'warn';
        info: 'info';
        debug: 'debug';
        trace: 'trace';
        silent: 'silent';
      }>
    >;
    TRUST_PROXY: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<number | boolean | string[], string | undefined>>;
    PORT: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    PUBLIC_URL: z.ZodDefault<z.ZodPipe<z.ZodString, z.ZodTransform<string, string>>>;
    SAMPLE_APP_URL: z.ZodDefault<z.ZodString>;
    POSTGRES_SCHEMA: z.ZodDefault<z.ZodString>;
    REDIS_KEY_PREFIX: z.ZodDefault<z.ZodString>;
    KEY_TTL_SECONDS: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    TOKEN_TTL_SECONDS: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    UPLOAD_MAX_BYTES: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    UPLOAD_MAX_PIXELS: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    IMAGE_CONCURRENCY: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    API_RATE_LIMIT: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    API_RATE_WINDOW_SECONDS: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    DEMO: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<boolean, string | undefined>>;
  },
  z.core.$strip
>;
export type Config = z.infer<typeof envSchema>;
export declare function loadPlatformConfig(env?: NodeJS.ProcessEnv): Config;
