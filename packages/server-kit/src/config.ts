import { z } from 'zod';

/** Parses an env flag the way people write them: 1/true/yes/on. */
export const envFlag = z
  .string()
  .optional()
  .transform((value) => value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase()));

/** An empty variable counts as unset: `PORT=` in a shell or a compose file means the default, not 0. */
export const emptyIsUnset = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema);

/** A TCP port to listen on (0: any free one); empty is `fallback`. */
export const portNumber = (fallback: number) =>
  emptyIsUnset(z.coerce.number().int().min(0).max(65535).default(fallback));

/**
 * Variables every service understands. Each service extends this schema with its own,
 * so one `loadConfig` call validates the whole environment once, at start-up.
 */
export const baseEnvSchema = z.object({
  /** `production` caches templates; `test` is set by the test runner. */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Address to listen on (0.0.0.0 to accept connections from other hosts). */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Port to listen on (each service has its own default). */
  PORT: portNumber(3000),
  /** Where the SQLite file, zone snapshots and media live in the embedded mode. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL instead of SQLite (postgres://user@host:5432/db); each service keeps its own schema. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Redis for quota counters, caches, rate limits and BullMQ jobs shared by many instances. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * Redis Cluster instead of one Redis: comma-separated seed URLs (redis:// or rediss://, any of
   * the cluster's nodes; the client learns the rest). Used instead of REDIS_URL, never with it.
   */
  REDIS_CLUSTER_URLS: z
    .string()
    .optional()
    .transform((value, context) => {
      const urls = (value ?? '')
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean);
      for (const url of urls) {
        if (!/^rediss?:\/\//.test(url)) {
          context.addIssue({ code: 'custom', message: `${url} must be a redis:// or rediss:// URL` });
        }
      }
      return urls.length > 0 ? urls : undefined;
    }),
  /** pino log level (secrets are redacted at every level). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Serve the Prometheus metrics at /metrics to anyone. Off by default: /metrics then needs
   * METRICS_TOKEN, or does not exist (404).
   */
  METRICS_PUBLIC: envFlag,
  /** Bearer token a scraper sends to read /metrics (`Authorization: Bearer <token>`, at least 16 characters); wins over METRICS_PUBLIC. */
  METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Behind a reverse proxy: `1`/`true` trusts X-Forwarded-For, a number trusts that many hops, or a list of addresses. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value) => parseTrustProxy(value)),
});

export type BaseConfig = z.infer<typeof baseEnvSchema>;

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Validates `env` against `schema` and reports every bad variable at once, by name. */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
  }
  const { REDIS_URL, REDIS_CLUSTER_URLS } = result.data as Partial<BaseConfig>;
  if (REDIS_URL && REDIS_CLUSTER_URLS) {
    throw new ConfigError([
      'REDIS_CLUSTER_URLS: set either REDIS_URL (one Redis) or REDIS_CLUSTER_URLS (a Redis Cluster), not both',
    ]);
  }
  return result.data;
}

/** `1`/`true` trust every hop, a number trusts that many hops, anything else is a list of addresses/CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
