import type { Clock } from '@repo/server-kit';
import type { RdapBootstrap } from './bootstrap.ts';
import { daysBetween } from './dates.ts';
import type { FetchOutcome, RdapHttp } from './http.ts';
import {
  MalformedRdapError,
  mergeRegistrarRecord,
  type ParsedDomain,
  parseDomainObject,
  registrarLink,
  serverRecord,
} from './parse.ts';
import type {
  RdapClient,
  RdapFailureReason,
  RdapLookup,
  RdapLookupOptions,
  RdapServerRecord,
  WhoisRecord,
} from './types.ts';

export interface HttpRdapClientOptions {
  http: RdapHttp;
  bootstrap: RdapBootstrap;
  clock: Clock;
  /** Budget of a lookup (registry, registrar hop and retries) when the caller sets no deadline. */
  defaultBudgetMs: number;
  /**
   * The most of the budget one registry server gets while another server of the bootstrap entry
   * could still be asked (RDAP_REQUEST_TIMEOUT_MS); the last server gets all that is left.
   */
  failOverAfterMs: number;
  allowInsecure: boolean;
}

/**
 * The RDAP engine: finds the TLD's registry server in the bootstrap, asks it, and (unless
 * `registryOnly`) follows one `related` link to the registrar's record. `not_found` is
 * only ever the registry server's own 404.
 */
export class HttpRdapClient implements RdapClient {
  readonly #options: HttpRdapClientOptions;

  constructor(options: HttpRdapClientOptions) {
    this.#options = options;
  }

  /**
   * Whether the bootstrap (or an override) names a server we may ask for this public suffix;
   * null when the bootstrap file cannot be loaded, so nobody can tell.
   */
  async hasServerFor(suffix: string): Promise<boolean | null> {
    const servers = await this.#options.bootstrap.serversFor(suffix);
    if (servers.kind === 'unavailable') return null;
    return servers.kind === 'servers' && this.#usable(servers.baseUrls).length > 0;
  }

  /** The host (name, and port when not the default) of the first server we would ask for this suffix; null: none, or no bootstrap. */
  async registryHostOf(suffix: string): Promise<string | null> {
    const servers = await this.#options.bootstrap.serversFor(suffix);
    if (servers.kind !== 'servers') return null;
    const [first] = this.#usable(servers.baseUrls);
    return first ? new URL(first).host : null;
  }

  async lookupDomain(name: string, options: RdapLookupOptions): Promise<RdapLookup> {
    const { bootstrap, http } = this.#options;
    const budgetMs = options.deadline === undefined ? this.#options.defaultBudgetMs : options.deadline - Date.now();
    if (budgetMs <= 0) return this.#unknown('deadline_exceeded', 'The deadline passed before the lookup started.');
    const startedAt = Date.now();
    const remaining = () => budgetMs - (Date.now() - startedAt);

    const suffix = name.slice(name.indexOf('.') + 1);
    const servers = await bootstrap.serversFor(suffix);
    if (servers.kind === 'unavailable') return this.#unknown('upstream_error', servers.message);
    const baseUrls = servers.kind === 'servers' ? this.#usable(servers.baseUrls) : [];
    if (baseUrls.length === 0) return this.#unknown('no_rdap_server', `No RDAP server is known for .${suffix}.`);

    // A bootstrap entry may list several servers of the same registry: the next one is asked when
    // one fails. Only an answer (a record or the registry's own 404) ends the round.
    let registryUrl = '';
    let server = '';
    let registry: FetchOutcome | undefined;
    for (const [index, baseUrl] of baseUrls.entries()) {
      server = baseUrl;
      registryUrl = new URL(`domain/${name}`, baseUrl).toString();
      const isLast = index === baseUrls.length - 1;
      const shareMs = isLast ? remaining() : Math.min(remaining(), this.#options.failOverAfterMs);
      registry = await http.getJson(registryUrl, shareMs, options.traffic, options.signal);
      if (registry.kind !== 'failure' || remaining() <= 0 || options.signal?.aborted) break;
      // With budget left, a deadline_exceeded is this server's share running out: the next one is asked.
      if (!canFailOver(registry) && registry.reason !== 'deadline_exceeded') break;
    }
    if (!registry) return this.#unknown('no_rdap_server', `No RDAP server is known for .${suffix}.`);
    if (registry.kind === 'not_found') {
      return { kind: 'not_found', source: registry.url, via: 'rdap', server, checkedAt: this.#now() };
    }
    if (registry.kind === 'failure') return { ...this.#fromFailure(registry), server };

    let parsed: ParsedDomain;
    try {
      parsed = parseDomainObject(registry.body, name);
      assertSameName(registry.body, name);
    } catch (error) {
      if (error instanceof MalformedRdapError) return this.#unknown('malformed_response', error.message);
      throw error;
    }

    const registryRecord = serverRecord(parsed, registryUrl);
    const sources = [registryUrl];
    const missing: string[] = [];
    let registrarRecord: RdapServerRecord | null = null;
    let registrarDocument: Record<string, unknown> | null = null;
    const link = options.registryOnly ? null : registrarLink(registry.body, registryUrl);
    if (link && link !== registryUrl) {
      sources.push(link);
      const registrar = await http.getJson(link, remaining(), options.traffic, options.signal);
      const fromRegistrar = registrar.kind === 'ok' ? parseOrNull(registrar.body, name) : null;
      if (registrar.kind === 'ok' && fromRegistrar) {
        parsed = mergeRegistrarRecord(parsed, fromRegistrar);
        registrarRecord = serverRecord(fromRegistrar, link);
        registrarDocument = registrar.body;
      } else missing.push('registrar_record');
    }
    const fetchedAt = this.#options.clock.now();
    const record: WhoisRecord = {
      ...parsed,
      source: 'rdap',
      server,
      rdap_sources: sources,
      missing,
      fetched_at: new Date(fetchedAt).toISOString(),
      ...recordAges(parsed, fetchedAt),
      records: { registry: registryRecord, registrar: registrarRecord },
    };
    return { kind: 'found', record, raw: { registry: registry.body, registrar: registrarDocument } };
  }

  /** Base URLs we may use: https, or any in the insecure mode (tests, demo). */
  #usable(baseUrls: readonly string[]): string[] {
    return baseUrls.filter((url) => url.startsWith('https:') || this.#options.allowInsecure);
  }

  #fromFailure(failure: Extract<FetchOutcome, { kind: 'failure' }>): UnknownLookup {
    // Our own guard refusing the registry's address means we have no usable server for it.
    const reason = failure.reason === 'blocked_address' ? 'no_rdap_server' : failure.reason;
    return this.#unknown(reason, failure.message);
  }

  #unknown(reason: RdapFailureReason, message: string): UnknownLookup {
    return { kind: 'unknown', reason, message, checkedAt: this.#now(), via: 'rdap' };
  }

  #now(): string {
    return new Date(this.#options.clock.now()).toISOString();
  }
}

type UnknownLookup = Extract<RdapLookup, { kind: 'unknown' }>;

/** Failures of one server that another server of the same registry may not share. */
function canFailOver(failure: Extract<FetchOutcome, { kind: 'failure' }>): boolean {
  return failure.reason !== 'deadline_exceeded' && failure.reason !== 'malformed_response';
}

/** `age_days` and `expires_in_days` as of `now`: recomputed whenever a stored record is served. */
export function recordAges(
  record: Pick<WhoisRecord, 'created_at' | 'expires_at'>,
  now: number,
): Pick<WhoisRecord, 'age_days' | 'expires_in_days'> {
  return {
    age_days: record.created_at ? daysBetween(Date.parse(record.created_at), now) : null,
    expires_in_days: record.expires_at ? daysBetween(now, Date.parse(record.expires_at)) : null,
  };
}

function parseOrNull(body: Record<string, unknown>, name: string): ParsedDomain | null {
  try {
    return parseDomainObject(body, name);
  } catch (error) {
    if (error instanceof MalformedRdapError) return null;
    throw error;
  }
}

/** A registry answering about another name than the one asked is not an answer about ours. */
function assertSameName(body: Record<string, unknown>, name: string): void {
  // Some servers (Com Laude, ZDNS) write the name fully qualified, with a trailing dot.
  const ldhName = typeof body.ldhName === 'string' ? body.ldhName.toLowerCase().replace(/\.$/, '') : undefined;
  if (ldhName !== undefined && ldhName !== name) {
    throw new MalformedRdapError(`The registry answered about ${ldhName}, not ${name}.`);
  }
}
