import type { Clock } from '@repo/server-kit';
import type { RdapBootstrap } from './bootstrap.ts';
import type { FetchOutcome, RdapHttp } from './http.ts';
import {
  MalformedRdapError,
  mergeRegistrarRecord,
  type ParsedDomain,
  parseDomainObject,
  registrarLink,
} from './parse.ts';
import type { RdapClient, RdapFailureReason, RdapLookup, RdapLookupOptions } from './types.ts';

export interface HttpRdapClientOptions {
  http: RdapHttp;
  bootstrap: RdapBootstrap;
  clock: Clock;
  /** Budget of a lookup (registry, registrar hop and retries) when the caller sets no deadline. */
  defaultBudgetMs: number;
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

  async lookupDomain(name: string, options: RdapLookupOptions = {}): Promise<RdapLookup> {
    const { bootstrap, http } = this.#options;
    const budgetMs = options.deadline === undefined ? this.#options.defaultBudgetMs : options.deadline - Date.now();
    if (budgetMs <= 0) return this.#unknown('deadline_exceeded', 'The deadline passed before the lookup started.');
    const startedAt = Date.now();
    const remaining = () => budgetMs - (Date.now() - startedAt);

    const suffix = name.slice(name.indexOf('.') + 1);
    const servers = await bootstrap.serversFor(suffix);
    if (servers.kind === 'unavailable') return this.#unknown('upstream_error', servers.message);
    const baseUrl =
      servers.kind === 'servers'
        ? servers.baseUrls.find((url) => url.startsWith('https:') || this.#options.allowInsecure)
        : undefined;
    if (!baseUrl) return this.#unknown('no_rdap_server', `No RDAP server is known for .${suffix}.`);

    const registryUrl = new URL(`domain/${name}`, baseUrl).toString();
    const registry = await http.getJson(registryUrl, remaining(), options.signal);
    if (registry.kind === 'not_found') return { kind: 'not_found', source: registryUrl, checkedAt: this.#now() };
    if (registry.kind === 'failure') return this.#fromFailure(registry);

    let parsed: ParsedDomain;
    try {
      parsed = parseDomainObject(registry.body, name);
      assertSameName(registry.body, name);
    } catch (error) {
      if (error instanceof MalformedRdapError) return this.#unknown('malformed_response', error.message);
      throw error;
    }

    const sources = [registryUrl];
    const missing: string[] = [];
    const link = options.registryOnly ? null : registrarLink(registry.body, registryUrl);
    if (link && link !== registryUrl) {
      sources.push(link);
      const registrar = await http.getJson(link, remaining(), options.signal);
      const merged = registrar.kind === 'ok' ? mergeOrNull(parsed, registrar.body, name) : null;
      if (merged) parsed = merged;
      else missing.push('registrar_record');
    }
    return { kind: 'found', record: { ...parsed, rdap_sources: sources, missing, fetched_at: this.#now() } };
  }

  #fromFailure(failure: Extract<FetchOutcome, { kind: 'failure' }>): RdapLookup {
    // Our own guard refusing the registry's address means we have no usable server for it.
    const reason = failure.reason === 'blocked_address' ? 'no_rdap_server' : failure.reason;
    return this.#unknown(reason, failure.message);
  }

  #unknown(reason: RdapFailureReason, message: string): RdapLookup {
    return { kind: 'unknown', reason, message, checkedAt: this.#now() };
  }

  #now(): string {
    return new Date(this.#options.clock.now()).toISOString();
  }
}

function mergeOrNull(registry: ParsedDomain, body: Record<string, unknown>, name: string): ParsedDomain | null {
  try {
    return mergeRegistrarRecord(registry, parseDomainObject(body, name));
  } catch (error) {
    if (error instanceof MalformedRdapError) return null;
    throw error;
  }
}

/** A registry answering about another name than the one asked is not an answer about ours. */
function assertSameName(body: Record<string, unknown>, name: string): void {
  const ldhName = typeof body.ldhName === 'string' ? body.ldhName.toLowerCase().replace(/\.$/, '') : undefined;
  if (ldhName !== undefined && ldhName !== name) {
    throw new MalformedRdapError(`The registry answered about ${ldhName}, not ${name}.`);
  }
}
