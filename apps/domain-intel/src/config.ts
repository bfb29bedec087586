import { baseEnvSchema, ConfigError, envFlag, loadConfig, portNumber } from '@repo/server-kit/config';
import { z } from 'zod';

/** `com, NET,com` → `['com', 'net']` */
const commaSeparatedSet = (value: string) => [
  ...new Set(
    value
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean),
  ),
];
/** A credential that may be absent (an empty value counts as absent). */
const optionalSecret = z
  .string()
  .min(1)
  .optional()
  .or(z.literal('').transform(() => undefined));

/**
 * Every environment variable of the Domain Intelligence API, validated once at start-up.
 * Defaults run the embedded mode: one process, SQLite under DATA_DIR, in-process jobs.
 */
export const envSchema = baseEnvSchema.extend({
  PORT: portNumber(3000),
  /** Public address of this API, used in links (docs, dashboard). */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * Sign-ups that go through (a confirmation mail sent, or an account created) per client IP per
   * hour; failed attempts (a mistyped address) do not count.
   */
  SIGNUP_RATE_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /**
   * `auto`: sign-ups confirm the address by mail whenever account mail works (SMTP_URL, or the
   * embedded outbox), and the key is shown on the page the link opens; `off`: the key is shown at
   * once, as without mail.
   */
  SIGNUP_CONFIRMATION: z.enum(['auto', 'off']).default('auto'),
  /** Calls to the key-less /v1/sample allowed per client IP per day. */
  SAMPLE_RATE_PER_DAY: z.coerce.number().int().min(1).default(20),
  /** Postgres schema of this service's tables (the platform keeps its own beside it). */
  POSTGRES_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('domain_intel'),
  /**
   * How long (ms) an API instance may reuse a key's account and plan without asking the
   * database. Revocations and plan changes made on the same instance apply at once; made on
   * another instance, within this time. 0 looks every key up on every call.
   */
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** Prefix of every Redis key this service writes. */
  REDIS_KEY_PREFIX: z.string().default('di:'),
  /** TLDs the dropped-domain feed tracks (comma-separated, lowercase). */
  TRACKED_TLDS: z
    .string()
    .default('com,net,org,info,biz,xyz,online,site,top,store')
    .transform(commaSeparatedSet)
    .pipe(z.array(z.string().regex(/^[a-z0-9-]+$/, 'each TLD must be one lowercase label')).min(1)),
  /** Wayback Machine CDX server (first capture = archive age). */
  WAYBACK_CDX_URL: z.string().url().default('https://web.archive.org/cdx/search/cdx'),
  /** Requests per minute to the Wayback CDX server (it throttles heavy clients). */
  WAYBACK_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(6000).default(60),
  /** Moz Links API v2 url_metrics endpoint (Domain Authority). */
  MOZ_API_URL: z.string().url().default('https://lsapi.seomoz.com/v2/url_metrics'),
  /** Moz API token (x-moz-token); without it DA stays null. */
  MOZ_TOKEN: optionalSecret,
  /** Majestic JSON API endpoint (Trust Flow, Citation Flow). */
  MAJESTIC_API_URL: z.string().url().default('https://api.majestic.com/api/json'),
  /** Majestic app_api_key; without it TF and CF stay null. */
  MAJESTIC_API_KEY: optionalSecret,
  /** Timeout of one request to Wayback, Moz or Majestic, in ms. */
  ENRICH_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Most candidates enriched per hourly run. */
  ENRICH_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(2_000),
  /**
   * RDAP re-checks per TLD in one hourly run: `auto` = what the TLD's registry host allows in the
   * run's 45 minutes at its rate (RDAP_HOST_RATES), so the rate bounds a run, not a count; or a number.
   */
  RDAP_RECHECKS_PER_TLD: z
    .string()
    .default('auto')
    .transform((value) => (value.trim() === 'auto' ? 'auto' : Number(value)))
    .pipe(z.union([z.literal('auto'), z.number().int().min(1).max(1_000_000)])),
  /**
   * JSON map TLD → "HH:MM" (UTC): by when that TLD's registry has run its daily deletion batch
   * (names 30 days in redemption enter pending delete, names 5 days in pending delete are
   * purged). Each candidate's lookups fall due at the batch that changes its answer; for a TLD
   * not listed the time is learned from the registry's pending-delete dates.
   */
  RDAP_PURGE_TIMES: jsonEnv(
    z.record(z.string().regex(/^[a-z0-9.-]+$/), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/)),
    '{}',
  ),
  /** Days a deleted name spends in redemption at the registries (the gTLD standard: 30; the demo's simulator: 1). */
  LIFECYCLE_REDEMPTION_DAYS: z.coerce.number().min(0.01).max(90).default(30),
  /** Days in pending delete before the purge (the gTLD standard: 5; the demo's simulator: 1). */
  LIFECYCLE_PENDING_DELETE_DAYS: z.coerce.number().min(0.01).max(30).default(5),
  /** Days a name stays in the new-registrations feed (`status=new`) after the zone file it first appeared in. */
  NEW_REGISTRATION_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** RDAP re-checks in flight per TLD. */
  RDAP_RECHECK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /**
   * Where the daily (06:00 UTC) and hourly jobs run: `auto` = on BullMQ (run `domain-intel
   * worker`) when REDIS_URL or REDIS_CLUSTER_URLS is set, else in this process under a database
   * lease; `off` in tests.
   */
  JOBS_SCHEDULER: z.enum(['auto', 'in-process', 'bullmq', 'off']).default('auto'),
  /**
   * Lifetime of every job's database lease (daily, hourly, deliveries, watchlist), in seconds.
   * The running job renews it every quarter of this (a heartbeat), so it only lapses when its
   * holder died; the recovery check (every 15 s) then re-runs the interrupted job: at the default
   * 30, work resumes at most 45 s after its holder dies.
   */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * The request header carrying the id the proxy in front of the API gives each call (HAProxy:
   * `http-request set-header X-Request-Id %[unique-id]`), e.g. `x-request-id`. With it, a call the
   * proxy re-sent after its instance died without answering is counted once in the quota. Unset
   * (the default): no header is read. Set it only when every call reaches the API through that
   * proxy and the proxy overwrites the header: a client that could set it could repeat an id and
   * be counted once for many calls.
   */
  QUOTA_REQUEST_ID_HEADER: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'a header name in lowercase (e.g. x-request-id)')
    .optional(),
  /** How long a feed `total` may be reused for the same filters, in seconds (0 = never). */
  FEED_COUNT_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /**
   * `memory` (default): pages and totals of /v1/domains come from an in-memory columnar index of
   * the feed's filter and sort columns (about 80 MB per million feed rows), rebuilt after each
   * pipeline run; `off`: SQL only (hosts that cannot spare the memory).
   */
  FEED_INDEX: z.enum(['memory', 'off']).default('memory'),
  /** How often a process checks whether another process changed the feed (its index is then rebuilt), in seconds. */
  FEED_INDEX_CHECK_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  /**
   * After a pipeline run, how long the previous feed index keeps answering while the new one
   * builds, in seconds (0: SQL answers during every rebuild). Both indexes are in memory meanwhile.
   */
  FEED_INDEX_STALE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /**
   * Drops older than this many days are left out of the in-memory feed index (0: none are); a
   * query that can match them (no `dropped_after` within the retention) is answered by SQL.
   */
  FEED_INDEX_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /**
   * The most rows the in-memory feed index holds (0: no ceiling; ~80 MB per million): beyond it the
   * oldest days of drops are left out, logged (feed_index_ceiling), and answered by SQL.
   */
  FEED_INDEX_MAX_ROWS: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  /**
   * Directory of the feed index snapshots the API processes of a host share (default
   * DATA_DIR/feed-index; empty: none, each process builds its own index and writes nothing): one
   * process builds the index of a feed version and writes it there, every process maps that file
   * (one copy in memory per host), and a process starting maps the newest at once instead of
   * answering from SQL while it builds. About 80 MB of disk per million feed rows, two files
   * while one replaces the other.
   */
  FEED_INDEX_DIR: z.string().optional(),
  /**
   * The in-memory feed index's memory ceiling in MB (MiB, decimals allowed; 0: none), as rows: this
   * ÷ the bytes per row of this process's last build of 100,000 rows or more (before one, 128 bytes, above
   * every measured figure); the rows beyond it leave as with FEED_INDEX_MAX_ROWS (the lower of the two
   * applies). Per index: while a rebuild runs, the previous index is held too (FEED_INDEX_STALE_SECONDS).
   */
  FEED_INDEX_MAX_MB: z.coerce.number().min(0).max(1_000_000).default(0),
  /**
   * Feed rows kept in memory for the current feed version, so pages served from the index need
   * not read their rows again (~0.6 KB a row: 12 MB at the default; 0 = off). Emptied whenever the feed version moves.
   */
  FEED_ROW_CACHE_ROWS: z.coerce.number().int().min(0).max(10_000_000).default(20_000),
  /** ICANN account API (CZDS authentication: POST {CZDS_AUTH_URL}/api/authenticate). */
  CZDS_AUTH_URL: z.string().url().default('https://account-api.icann.org').transform(withoutTrailingSlash),
  /** ICANN CZDS API (GET {CZDS_API_URL}/czds/downloads/links and the zone files). */
  CZDS_API_URL: z.string().url().default('https://czds-api.icann.org').transform(withoutTrailingSlash),
  /** ICANN account credentials; without them zone files can only be imported from local files. */
  CZDS_USERNAME: z
    .string()
    .min(1)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Password of the ICANN account (with CZDS_USERNAME). */
  CZDS_PASSWORD: z
    .string()
    .min(1)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Retries of a failed CZDS request or interrupted download (resumed with Range). */
  CZDS_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  /** First retry delay in ms (doubles on each retry, at most 30 s). */
  CZDS_RETRY_DELAY_MS: z.coerce.number().int().min(1).max(60_000).default(1_000),
  /** Idle ms without a byte from CZDS before a request is abandoned (and retried). */
  CZDS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** Names sorted in memory at once during a zone import (bounds memory: ~80 bytes per name). */
  ZONE_SORT_CHUNK_NAMES: z.coerce.number().int().min(1_000).max(50_000_000).default(1_000_000),
  /** Largest fraction of names a zone may lose between two snapshots before its file is refused as incomplete. */
  ZONE_MAX_SHRINK: z.coerce.number().min(0).max(1).default(0.5),
  // --- RDAP engine (rdap/) ---
  /** IANA RDAP bootstrap for DNS (RFC 9224): a URL or a file path. Kept on disk under DATA_DIR. */
  RDAP_BOOTSTRAP_URL: z.string().min(1).default('https://data.iana.org/rdap/dns.json'),
  /** JSON map TLD → RDAP base URL for TLDs missing from (or wrong in) the bootstrap file. */
  RDAP_BOOTSTRAP_OVERRIDES: jsonEnv(z.record(z.string().regex(/^[a-z0-9.-]+$/), z.string().url()), '{}'),
  /** Hours before the bootstrap file is downloaded again. */
  RDAP_BOOTSTRAP_REFRESH_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 30)
    .default(24),
  /**
   * Allow http and loopback RDAP servers, webhook and SFTP delivery targets (simulator, tests,
   * demo). Private ranges stay refused.
   */
  RDAP_ALLOW_INSECURE: envFlag,
  /** TCP+TLS connect cap per RDAP request, ms: the one bound of an attempt besides the caller's deadline. */
  RDAP_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3_000),
  /**
   * Slow figure per RDAP request, ms, not a timer: the caller's deadline bounds an exchange; one it
   * ends after running this long is a `timeout` for the host's circuit breaker (a hanging server).
   */
  RDAP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(5_000),
  /** Budget of one lookup (registry, registrar hop, retries) when the caller sets no deadline, ms. */
  RDAP_LOOKUP_BUDGET_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /** Largest RDAP response body read, bytes. */
  RDAP_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  /** Connections and requests in flight per RDAP host. */
  RDAP_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /**
   * Requests started per RDAP host per second, for every host RDAP_HOST_RATES does not name. Of
   * the large gTLD registries only CentralNic publishes a figure (below); Verisign, PIR and
   * Identity Digital publish none for RDAP, so the default stays at a rate no registry has been
   * seen to refuse, and a 429 lowers it (docs/design/rdap.md, "Registry rate limits").
   */
  RDAP_HOST_RATE_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(10),
  /**
   * JSON map RDAP host → requests started per second, over RDAP_HOST_RATE_PER_SECOND for those
   * hosts, e.g. {"rdap.verisign.com":60} (.com and .net share that host). The lifecycle tells
   * when a registry host needs more than its rate (a warning, rdap_plan_needed_rate). Built in:
   * CentralNic's published limit, 1,800 queries per 15 minutes per /24 shared with its WHOIS
   * (2/s); a value set here replaces the whole map, so keep that entry in it.
   */
  RDAP_HOST_RATES: jsonEnv(
    z.record(
      z.string().regex(/^[a-z0-9.-]+(:\d+)?$/, 'keys are RDAP host names (with :port when not 443)'),
      z.number().int().min(1).max(10_000),
    ),
    '{"rdap.centralnic.com":2}',
  ),
  /** Retries after a 429, each after the server's Retry-After. */
  RDAP_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  /** Longest Retry-After waited out, ms; a longer one answers rate_limited at once. */
  RDAP_RETRY_MAX_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(3_000),
  /** Longest a 429 pauses requests to a host, ms, whatever its Retry-After says (a day-long one would mute a registry). */
  RDAP_MAX_COOL_DOWN_MS: z.coerce.number().int().min(0).max(3_600_000).default(300_000),
  /** Circuit breaker per host: failure percentage that opens it … */
  RDAP_BREAKER_ERROR_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  /** … once at least this many requests fell in its 10 s window … */
  RDAP_BREAKER_MIN_REQUESTS: z.coerce.number().int().min(1).max(10_000).default(5),
  /** … and how long it stays open before one trial request, ms. */
  RDAP_BREAKER_RESET_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /**
   * Share of each RDAP host's rate kept for interactive lookups (/v1/check, /v1/whois, suggestions):
   * background work (re-checks, the watchlist) may use at most 1 − this of it, interactive all of it.
   */
  RDAP_INTERACTIVE_SHARE: z.coerce.number().min(0).max(0.9).default(0.2),
  /** Multiplier of an RDAP host's rate at each 429 (RFC 7480 §5.5: slow down); one 429 event lowers it once. */
  RDAP_RATE_DECREASE_FACTOR: z.coerce.number().min(0.1).max(0.95).default(0.5),
  /** Lowest rate a 429 takes an RDAP host to, requests a second (never above its configured rate). */
  RDAP_MIN_RATE_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(1),
  /** Seconds without a 429 after which a slowed RDAP host's rate goes up a tenth of its configured rate (at least 1/s). */
  RDAP_RATE_RECOVERY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /**
   * JSON map TLD → RDAP base URLs that registries publish but IANA's bootstrap file lacks, asked
   * after the file (RDAP_BOOTSTRAP_OVERRIDES > the file > this). Unset: the built-in table
   * (src/tlds/data/rdap-extra-servers.json, each entry with its source); `{}` turns it off.
   */
  RDAP_EXTRA_SERVERS: optionalJsonEnv(z.record(z.string().regex(/^[a-z0-9.-]+$/), z.array(z.string().url()).min(1))),
  // --- Port-43 WHOIS (whois/), for TLDs with no RDAP server ---
  /**
   * JSON map TLD → WHOIS server (`host` or `host:port`) over the built-in table of IANA's root-zone
   * database (src/tlds/data/root-zone.json). Answers are still read with the patterns of the TLD's
   * own server, so an override (a mirror, the simulator) must speak that server's format.
   */
  WHOIS_SERVERS: jsonEnv(
    z.record(
      z.string().regex(/^[a-z0-9.-]+$/),
      z.string().regex(/^[a-z0-9.-]+(:\d{1,5})?$/i, 'values are host or host:port'),
    ),
    '{}',
  ),
  /** TCP connect cap per WHOIS query, ms: the one bound of a query besides the caller's deadline. */
  WHOIS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3_000),
  /**
   * Slow figure per WHOIS query (until the server closes), ms, not a timer: the caller's deadline
   * bounds a query; one it ends after running this long (a server that never closes) gives `timeout`.
   */
  WHOIS_ANSWER_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(8_000),
  /** Largest WHOIS answer read, bytes; a longer one gives `response_too_large`. */
  WHOIS_MAX_ANSWER_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(10_000_000)
    .default(256 * 1024),
  /** Queries in flight per WHOIS server. */
  WHOIS_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * Queries started per WHOIS server per second, for every server WHOIS_HOST_RATES does not name.
   * WHOIS servers throttle by client address and many block for hours once crossed (DENIC, JPRS,
   * Nominet publish limits of about one query a second), so the default is one.
   */
  WHOIS_HOST_RATE_PER_SECOND: z.coerce.number().min(0.01).max(1_000).default(1),
  /** JSON map WHOIS `host:port` (port 43 included) → queries per second, over WHOIS_HOST_RATE_PER_SECOND. */
  WHOIS_HOST_RATES: jsonEnv(
    z.record(
      z.string().regex(/^[a-z0-9.-]+:\d{1,5}$/, 'keys are WHOIS servers as host:port'),
      z.number().min(0.01).max(1_000),
    ),
    '{}',
  ),
  /** How long a throttling answer ("query limit exceeded") pauses a WHOIS server for every instance, ms. */
  WHOIS_THROTTLE_PAUSE_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  // --- Availability (/v1/check) ---
  /** Overall deadline of one /v1/check call, ms: names not answered by then are `unknown`. */
  CHECK_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
  /** Cache lifetime of a `registered` answer, seconds. */
  CHECK_CACHE_TTL_REGISTERED_S: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(3_600),
  /** Cache lifetime of an `available` answer, seconds (short: someone may register it). */
  CHECK_CACHE_TTL_AVAILABLE_S: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Cache lifetime of an `unknown` answer, seconds (spares a failing registry). */
  CHECK_CACHE_TTL_UNKNOWN_S: z.coerce.number().int().min(0).max(3_600).default(15),
  /** Entries of the in-memory availability cache (without Redis). */
  CHECK_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /** JSON map TLD → names (or labels) the registry reserves, e.g. {"com":["example"]}: answered `reserved`. */
  CHECK_RESERVED_NAMES: jsonEnv(z.record(z.string(), z.array(z.string())), '{}'),
  // --- WHOIS (/v1/whois) ---
  /** Cache lifetime of a WHOIS record, seconds. */
  WHOIS_CACHE_TTL_FOUND_S: z.coerce.number().int().min(0).max(86_400).default(3_600),
  /** Cache lifetime of a "not registered" WHOIS answer, seconds (short: someone may register it). */
  WHOIS_CACHE_TTL_NOT_FOUND_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Cache lifetime of a failed WHOIS lookup, seconds (spares a failing or throttling registry). */
  WHOIS_CACHE_TTL_UNKNOWN_S: z.coerce.number().int().min(0).max(3_600).default(30),
  /** Entries of the in-memory WHOIS cache (without Redis); records with their raw documents are a few KB each. */
  WHOIS_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  // --- Suggestions (/v1/suggest) and the zone index ---
  /** TLDs suggested besides the tracked ones when the caller names none (comma-separated, in preference order). */
  SUGGEST_POPULAR_TLDS: z
    .string()
    .default('io,co,ai,app,dev')
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((tld) => tld.trim().toLowerCase())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.string().regex(/^[a-z0-9-]+$/, 'each TLD must be one lowercase label'))),
  /** Time budget of one /v1/suggest call, ms: names not confirmed by RDAP by then are left out. */
  SUGGEST_DEADLINE_MS: z.coerce.number().int().min(100).max(30_000).default(800),
  /** RDAP confirmations in flight per /v1/suggest call (the RDAP per-host limits still apply). */
  SUGGEST_CONFIRM_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(20),
  /** Most names one /v1/suggest call asks RDAP about, so one keyword cannot use up a registry's rate limit. */
  SUGGEST_MAX_RDAP_CHECKS: z.coerce.number().int().min(1).max(500).default(60),
  /** Directory of the zone index files (one per tracked TLD); default DATA_DIR/zone-index. */
  ZONE_INDEX_DIR: z
    .string()
    .min(1)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Memory for cached zone-index blocks, MB, shared by all TLDs (the index itself stays on disk). */
  ZONE_INDEX_CACHE_MB: z.coerce.number().int().min(1).max(16_384).default(64),
  /** How often a serving process checks for a newer snapshot to index, minutes (0: only when the daily job refreshes). */
  ZONE_INDEX_REFRESH_MINUTES: z.coerce.number().int().min(0).max(1_440).default(10),
  // --- Account dashboard (/dashboard) ---
  /** How long a dashboard sign-in lasts, hours. */
  DASHBOARD_SESSION_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  /** Dashboard sign-in attempts allowed per client IP per 15 minutes. */
  DASHBOARD_SIGNIN_RATE_PER_15_MIN: z.coerce.number().int().min(1).default(10),
  /**
   * Secret that signs the CSRF cookies of the dashboard and sign-up forms (at least 32
   * characters). Unset: a random one per process, so forms open across a restart or on another
   * instance must be reloaded.
   */
  DASHBOARD_COOKIE_SECRET: z
    .string()
    .min(32)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * One-time sign-in links for the dashboard: `auto` = sent by e-mail whenever account mail works
   * (SMTP_URL, or the embedded outbox), else none; `log` = printed to the server log instead (for
   * an operator without mail); `off` = never.
   */
  DASHBOARD_SIGN_IN_LINKS: z.enum(['auto', 'log', 'off']).default('auto'),
  // --- Account e-mail (mail/) ---
  /**
   * SMTP server for account mail: smtp://user:password@host:587 (STARTTLS when offered) or
   * smtps://user:password@host:465. Percent-encode special characters in the user and password.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]/, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Sender of account mail, an address or `Name <address>`. */
  MAIL_FROM: z
    .string()
    .min(3)
    .refine((value) => !/[\r\n]/.test(value), 'must be one line')
    .default('Domain Intelligence <no-reply@localhost>'),
  /**
   * How account mail leaves: `auto` = through SMTP_URL when set, else to DATA_DIR/outbox as `.eml`
   * files plus a log line in the embedded mode (no DATABASE_URL), else no mail; `smtp` (needs
   * SMTP_URL), `outbox` or `off` force one.
   */
  MAIL_TRANSPORT: z.enum(['auto', 'smtp', 'outbox', 'off']).default('auto'),
  /** Connect, greeting and idle timeout of the SMTP connection, ms. */
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // --- Billing (billing/) ---
  /** Stripe secret key (sk_live_… / sk_test_…). With STRIPE_WEBHOOK_SECRET and both prices, the dashboard sells plans through Stripe Checkout; without it plans are set by the operator's CLI. */
  STRIPE_SECRET_KEY: optionalSecret,
  /** Signing secret (whsec_…) of the webhook endpoint POST {PUBLIC_URL}/billing/webhook registered in Stripe. */
  STRIPE_WEBHOOK_SECRET: optionalSecret,
  /** Stripe Price id (price_…) of the Starter plan, monthly. */
  STRIPE_PRICE_STARTER: z
    .string()
    .regex(/^price_\w+$/, 'must be a Stripe price id (price_…)')
    .optional(),
  /** Stripe Price id (price_…) of the Enterprise plan, monthly. */
  STRIPE_PRICE_ENTERPRISE: z
    .string()
    .regex(/^price_\w+$/, 'must be a Stripe price id (price_…)')
    .optional(),
  /** Base URL of Stripe's API; tests and the demo point it at the simulator (http://127.0.0.1:3900). */
  STRIPE_API_URL: z.string().url().default('https://api.stripe.com'),
  /** Oldest webhook signature timestamp accepted, seconds (Stripe's default tolerance, against replays). */
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /** Connect and response timeout of one webhook or SFTP delivery attempt, ms. */
  DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** How long one sending round may start new deliveries, seconds (the rest waits for the next round). */
  DELIVERY_SEND_BUDGET_SECONDS: z.coerce.number().int().min(1).max(3_600).default(300),
  /** Most watched names looked up in RDAP in one watchlist round (every 5 minutes; more wait for the next). */
  WATCH_RECHECK_BUDGET: z.coerce.number().int().min(1).max(100_000).default(500),
  /** Watched names looked up in RDAP at the same time (the per-registry RDAP limits still apply). */
  WATCH_RECHECK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** Seed a demo account and key at start (npm start). */
  DEMO: envFlag,
});

export type Config = z.infer<typeof envSchema>;

export function loadDomainIntelConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = loadConfig(envSchema, env);
  const conflicts = crossFieldIssues(config);
  if (conflicts.length > 0) throw new ConfigError(conflicts);
  return config;
}

/** Settings that are valid one by one but not together. */
function crossFieldIssues(config: Config): string[] {
  const issues: string[] = [];
  if (config.MAIL_TRANSPORT === 'smtp' && !config.SMTP_URL) issues.push('MAIL_TRANSPORT: `smtp` needs SMTP_URL');
  if (config.STRIPE_SECRET_KEY) {
    for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_STARTER', 'STRIPE_PRICE_ENTERPRISE'] as const) {
      if (!config[name]) issues.push(`${name}: required with STRIPE_SECRET_KEY`);
    }
  }
  return issues;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** An env var holding JSON, validated by `schema`; a parse error names the variable like any other. */
/** Like jsonEnv, but unset (or empty) stays undefined: "use the built-in default", which `{}` can turn off. */
function optionalJsonEnv<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .optional()
    .transform((text) => (text === undefined || text.trim() === '' ? undefined : text))
    .pipe(jsonEnv(schema, '{}').optional());
}

function jsonEnv<T extends z.ZodType>(schema: T, fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'must be valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}
