import { z } from 'zod';
/**
 * Every setting of the sample app, validated once at start-up. The defaults match the
 * platform's own (`npm start` runs the platform on :3100 and this app on :3200).
 */
export declare const sampleAppEnvSchema: z.ZodObject<
  {
    NODE_ENV: z.ZodDefault<
      z.ZodEnum<{
        development: 'development';
        production: 'production';
        test: 'test';
      }>
    >;
    HOST: z.ZodDefault<z.ZodString>;
    PORT: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    PLATFORM_URL: z.ZodDefault<z.ZodString>;
    SESSION_TTL_MINUTES: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    MAX_UPLOAD_MB: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    PLATFORM_TIMEOUT_MS: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
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
    TRUST_PROXY: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<boolean, string | undefined>>;
  },
  z.core.$strip
>;
export type SampleAppConfig = z.infer<typeof sampleAppEnvSchema>;
export declare function loadSampleAppConfig(env?: NodeJS.ProcessEnv): SampleAppConfig;
