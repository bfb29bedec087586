import { FEED_FILTER_PARAMETERS, FEED_PAGE_PARAMETERS } from '@repo/contracts/domain-intel';
import type {
  Availability,
  BulkCheck,
  CreatedDeliveryTarget,
  Delivery,
  DeliveryTarget,
  FeedFilters,
  FeedPage,
  FeedQuery,
  FeedRecord,
  NewSavedFilter,
  Page,
  Quota,
  RateLimit,
  SavedFilter,
  Suggestion,
  TargetKind,
  TldDrops,
  TldInfo,
  WatchedDomain,
  WhoisRecord,
} from './domain-intel-types.ts';
import { DomainIntelError } from './errors.ts';
import { CHECK_MAX_DOMAINS, DOMAIN_INTEL_OPERATIONS, FEED_MAX_LIMIT, FEED_MAX_OFFSET } from './operations.ts';
import { type CallOptions, type ClientOptions, Transport } from './transport.ts';

export interface DomainIntelClientOptions extends ClientOptions {
  /** `di_live_…`. Optional only for `sample()`, which needs no key. */
  apiKey?: string;
}

interface Envelope<T> {
  data: T;
  meta: { request_id: string; total?: number; limit?: number; offset?: number };
}

type OperationName = keyof typeof DOMAIN_INTEL_OPERATIONS;

/**
 * Client of the Domain Intelligence API. Every method is one API call (one unit of quota)
 * except `quota()` (free) and `sample()` (keyless), `checkMany()` with more than 30 names,
 * which makes one call per 30, and the management methods (saved filters, targets,
 * deliveries, watchlist), which are never counted.
 */
export class DomainIntelClient {
  readonly #transport: Transport;
  readonly #apiKey: string | undefined;
  /** The X-RateLimit-* headers of the last keyed answer (undefined before the first). */
  rateLimit: RateLimit | undefined;

  constructor(options: DomainIntelClientOptions) {
    this.#apiKey = options.apiKey;
    this.#transport = new Transport(options, readError);
  }

  /** Availability of one name. */
  async check(domain: string, options?: CallOptions): Promise<Availability> {
    const [result] = await this.#get<Availability[]>('check', { domain }, options);
    if (!result) throw new Error('The service answered /v1/check without a result.');
    return result;
  }

  /** Availability of several names, 30 per call, in the order given. */
  async checkMany(domains: readonly string[], options?: CallOptions): Promise<Availability[]> {
    const results: Availability[] = [];
    for (let start = 0; start < domains.length; start += CHECK_MAX_DOMAINS) {
      const batch = domains.slice(start, start + CHECK_MAX_DOMAINS);
      results.push(...(await this.#get<Availability[]>('checkMany', { domains: batch.join(',') }, options)));
    }
    return results;
  }

  /** The WHOIS record; `{ raw: true }` adds the registry's and registrar's RDAP documents. */
  async whois(name: string, options?: CallOptions & { raw?: boolean }): Promise<WhoisRecord> {
    return this.#get<WhoisRecord>('whois', { raw: options?.raw ? '1' : undefined }, options, { name });
  }

  /** Up to 20 available names built from `keyword`, optionally in these TLDs only. */
  async suggest(keyword: string, filter: { tld?: string | string[] } = {}, options?: CallOptions) {
    return this.#get<Suggestion[]>('suggest', { keyword, tld: wireValue(filter.tld) }, options);
  }

  /** One page of the dropped feed. */
  async domains(query: FeedQuery = {}, options?: CallOptions): Promise<FeedPage> {
    const { data, meta } = await this.#call<FeedRecord[]>('domains', feedParameters(query), options);
    return {
      records: data,
      total: meta.total ?? data.length,
      limit: meta.limit ?? data.length,
      offset: meta.offset ?? 0,
    };
  }

  /**
   * Every page of the feed from `query.offset` (default 0), `query.limit` rows each (default
   * 100), up to the feed's offset cap of 10 000: the last page starts at 10 000. Each page is
   * one call. Beyond the cap, Enterprise accounts use the bulk export.
   */
  async *domainPages(query: FeedQuery = {}, options?: CallOptions): AsyncGenerator<FeedPage> {
    const limit = query.limit ?? FEED_MAX_LIMIT;
    for (let offset = query.offset ?? 0; offset <= FEED_MAX_OFFSET; offset += limit) {
      const page = await this.domains({ ...query, limit, offset }, options);
      yield page;
      if (page.records.length < limit || offset + limit >= page.total) return;
    }
  }

  /** The records of `domainPages`, one by one. */
  async *iterateDomains(query: FeedQuery = {}, options?: CallOptions): AsyncGenerator<FeedRecord> {
    for await (const page of this.domainPages(query, options)) yield* page.records;
  }

  /** Today's quota of the key's account. Does not count against it. */
  async quota(options?: CallOptions): Promise<Quota> {
    return this.#get<Quota>('quota', {}, options);
  }

  /** Every TLD of the root zone and how it is answered (RDAP, WHOIS, neither). Does not count against the quota. */
  async tlds(options?: CallOptions): Promise<TldInfo[]> {
    return this.#get<TldInfo[]>('tlds', {}, options);
  }

  /** How one TLD is answered (ASCII or Unicode, with or without the dot). Does not count against the quota. */
  async tld(tld: string, options?: CallOptions): Promise<TldInfo> {
    return this.#get<TldInfo>('tld', {}, options, { tld });
  }

  /**
   * A tracked TLD's deletion batch (time, last 30 days' calendar) and how far its drop forecasts
   * were off in the last 30 days (minutes early and late, share inside the published window).
   * Does not count against the quota.
   */
  async tldDrops(tld: string, options?: CallOptions): Promise<TldDrops> {
    return this.#get<TldDrops>('tldDrops', {}, options, { tld });
  }

  /** The public profile of one domain in the feed, or null; no key needed, limited per IP. */
  async sample(domain: string, options?: CallOptions): Promise<FeedRecord | null> {
    const [record] = await this.#get<FeedRecord[]>('sample', { domain }, options);
    return record ?? null;
  }

  /** The account's saved filters ("custom filters"), oldest first. */
  async filters(options?: CallOptions): Promise<SavedFilter[]> {
    return this.#get<SavedFilter[]>('filters', {}, options);
  }

  /**
   * Saves a filter: its new matches are batched after every pipeline run and delivered to its
   * targets (Enterprise) or shown in the dashboard. `filter` takes what `domains()` takes.
   */
  async createFilter(input: NewSavedFilter, options?: CallOptions): Promise<SavedFilter> {
    const filter = typeof input.filter === 'string' ? input.filter : filterQueryString(input.filter);
    return this.#send<SavedFilter>(
      'createFilter',
      {
        name: input.name,
        filter,
        ...(input.brand !== undefined ? { brand: input.brand } : {}),
        ...(input.targetIds ? { target_ids: input.targetIds } : {}),
      },
      options,
    );
  }

  async deleteFilter(filterId: string, options?: CallOptions): Promise<void> {
    await this.#send('deleteFilter', undefined, options, { id: filterId });
  }

  /** Where saved filters and account events are delivered. */
  async targets(options?: CallOptions): Promise<DeliveryTarget[]> {
    return this.#get<DeliveryTarget[]>('targets', {}, options);
  }

  /**
   * Adds a webhook (any plan: it receives the account events), e-mail or SFTP target
   * (Enterprise). A webhook's signing `secret` is in this answer only: keep it.
   */
  async createTarget(
    input: { kind: TargetKind; address: string },
    options?: CallOptions,
  ): Promise<CreatedDeliveryTarget> {
    return this.#send<CreatedDeliveryTarget>('createTarget', { kind: input.kind, address: input.address }, options);
  }

  async deleteTarget(targetId: string, options?: CallOptions): Promise<void> {
    await this.#send('deleteTarget', undefined, options, { id: targetId });
  }

  /** The delivery log, newest first: each batch or event per target, with attempts, status and last error. */
  async deliveries(
    query: { filterId?: string; limit?: number; offset?: number } = {},
    options?: CallOptions,
  ): Promise<Delivery[]> {
    return this.#get<Delivery[]>(
      'deliveries',
      { filter_id: query.filterId, limit: text(query.limit), offset: text(query.offset) },
      options,
    );
  }

  /** Sends a delivered or dead-lettered message again: the same id and body, a new 24-hour retry window. */
  async redeliver(deliveryId: string, options?: CallOptions): Promise<Delivery> {
    return this.#send<Delivery>('redeliver', undefined, options, { id: deliveryId });
  }

  /** One page of the watchlist, oldest first, with each name's status, expected drop and evidence. */
  async watchlist(
    query: { limit?: number; offset?: number } = {},
    options?: CallOptions,
  ): Promise<Page<WatchedDomain>> {
    const { data, meta } = await this.#call<WatchedDomain[]>(
      'watchlist',
      { limit: text(query.limit), offset: text(query.offset) },
      options,
    );
    return {
      items: data,
      total: meta.total ?? data.length,
      limit: meta.limit ?? data.length,
      offset: meta.offset ?? 0,
    };
  }

  /** Starts watching a name (any TLD with RDAP, registered or not); answers with the first look at it. */
  async watch(domain: string, options?: CallOptions): Promise<WatchedDomain> {
    return this.#send<WatchedDomain>('watch', { domain }, options);
  }

  async unwatch(domain: string, options?: CallOptions): Promise<void> {
    await this.#send('unwatch', undefined, options, { domain });
  }

  /**
   * Starts a bulk availability job of up to 10,000 names (Starter and Enterprise). Each distinct
   * valid name takes one call of the daily quota now, all or none (429 quota_exceeded when they do
   * not all fit). Answers the queued job; follow it with `bulkCheckStatus`.
   */
  async bulkCheck(domains: readonly string[], options?: CallOptions): Promise<BulkCheck> {
    return this.#send<BulkCheck>('bulkCheck', { domains: [...domains] }, options);
  }

  /** The account's bulk jobs, newest first. */
  async bulkChecks(page: { limit?: number; offset?: number } = {}, options?: CallOptions): Promise<Page<BulkCheck>> {
    const { data, meta } = await this.#call<BulkCheck[]>(
      'bulkChecks',
      { limit: text(page.limit), offset: text(page.offset) },
      options,
    );
    return {
      items: data,
      total: meta.total ?? data.length,
      limit: meta.limit ?? data.length,
      offset: meta.offset ?? 0,
    };
  }

  /** A bulk job's status and progress (`done` of `total` items). */
  async bulkCheckStatus(id: string, options?: CallOptions): Promise<BulkCheck> {
    return this.#get<BulkCheck>('bulkCheckStatus', {}, options, { id });
  }

  /**
   * A bulk job's decided items, read as they download (NDJSON): one /v1/check record per distinct
   * name, in the order given. Before the job is done, the items decided so far.
   */
  async *bulkCheckResults(id: string, options?: CallOptions): AsyncGenerator<Availability> {
    const operation = DOMAIN_INTEL_OPERATIONS.bulkCheckResults;
    const body = await this.#transport.stream(
      {
        method: operation.method,
        path: operation.path.replace('{id}', encodeURIComponent(id)),
        query: { format: 'ndjson' },
        headers: this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {},
      },
      options,
    );
    for await (const line of lines(body)) yield JSON.parse(line) as Availability;
  }

  /** Cancels a queued or running bulk job; the items decided so far stay downloadable. */
  async cancelBulkCheck(id: string, options?: CallOptions): Promise<BulkCheck> {
    return this.#send<BulkCheck>('cancelBulkCheck', undefined, options, { id });
  }

  async #get<T>(
    name: OperationName,
    query: Record<string, string | undefined>,
    options?: CallOptions,
    pathParams: Record<string, string> = {},
  ): Promise<T> {
    return (await this.#call<T>(name, query, options, pathParams)).data;
  }

  async #call<T>(
    name: OperationName,
    query: Record<string, string | undefined>,
    options?: CallOptions,
    pathParams: Record<string, string> = {},
  ): Promise<Envelope<T>> {
    return (await this.#request(name, query, options, pathParams)) as Envelope<T>;
  }

  async #request(
    name: OperationName,
    query: Record<string, string | undefined>,
    options: CallOptions | undefined,
    pathParams: Record<string, string>,
    body?: Record<string, unknown>,
  ): Promise<unknown> {
    const operation = DOMAIN_INTEL_OPERATIONS[name];
    const path = operation.path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(pathParams[param]!));
    const headers: Record<string, string> = this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {};
    if (body) headers['content-type'] = 'application/json';
    const { body: answer } = await this.#transport.send(
      {
        method: operation.method,
        path,
        query,
        headers,
        ...(body ? { body: () => JSON.stringify(body) } : {}),
        // Error answers carry the headers too (a 429 says remaining 0).
        onResponse: (response) => this.#noteRateLimit(response.headers),
      },
      options,
    );
    return answer;
  }

  /** A management call with an optional JSON body; 204 answers give undefined. */
  async #send<T>(
    name: OperationName,
    body: Record<string, unknown> | undefined,
    options?: CallOptions,
    pathParams: Record<string, string> = {},
  ): Promise<T> {
    const answer = await this.#request(name, {}, options, pathParams, body);
    return (answer as Envelope<T> | undefined)?.data as T;
  }

  #noteRateLimit(headers: Headers): void {
    const limit = headers.get('x-ratelimit-limit');
    if (limit === null) return;
    const count = (value: string | null) => (value === null || value === 'unlimited' ? null : Number(value));
    const reset = headers.get('x-ratelimit-reset');
    this.rateLimit = {
      limit: count(limit),
      remaining: count(headers.get('x-ratelimit-remaining')),
      resetsAt: reset === null ? null : new Date(Number(reset) * 1000),
    };
  }
}

/** The non-empty lines of a UTF-8 stream, each as soon as it is complete (browsers and Node alike). */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let finished = false;
  try {
    while (!finished) {
      const { done, value } = await reader.read();
      finished = done;
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const complete = pending.split('\n');
      pending = done ? '' : complete.pop()!;
      for (const line of complete) if (line.trim() !== '') yield line;
    }
  } finally {
    // A caller that stopped early: the rest of the download is not read.
    if (!finished) await reader.cancel().catch(() => {});
  }
}

const text = (value: number | undefined) => (value === undefined ? undefined : String(value));

/** `min_alt_tlds` → `minAltTlds` (SdkName, at run time). */
const sdkName = (parameter: string) => parameter.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** A query field's value as the wire writes it: lists comma-joined, dates ISO, numbers and booleans as text. */
function wireValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.join(',');
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** Feed filters as the query string a saved filter stores (`tld=com&min_da=20`). */
function filterQueryString(filters: FeedFilters): string {
  return new URLSearchParams(
    Object.entries(wireParameters(filters, FEED_FILTER_PARAMETERS)).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  ).toString();
}

/** The query's fields under their wire names (each parameter's SdkName field). */
function wireParameters(query: FeedQuery, parameters: readonly string[]): Record<string, string | undefined> {
  const fields = query as Record<string, unknown>;
  return Object.fromEntries(parameters.map((parameter) => [parameter, wireValue(fields[sdkName(parameter)])]));
}

const feedParameters = (query: FeedQuery) =>
  wireParameters(query, [...FEED_FILTER_PARAMETERS, ...FEED_PAGE_PARAMETERS]);

/** `{"error": {"code", "message", "request_id", …}}` → DomainIntelError. */
function readError(response: Response, body: unknown): DomainIntelError {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  const retryAfter = response.headers.get('retry-after');
  if (!error || typeof error.code !== 'string') {
    return new DomainIntelError({
      status: response.status,
      code: response.status >= 500 ? 'internal_error' : 'unexpected_response',
      message: `The service answered ${response.status} without an error body.`,
    });
  }
  const { code, message, request_id, details } = error;
  return new DomainIntelError({
    status: response.status,
    code,
    message: typeof message === 'string' ? message : code,
    requestId: typeof request_id === 'string' ? request_id : undefined,
    details: details as Record<string, unknown> | undefined,
    retryAfterSeconds: retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined,
  });
}
