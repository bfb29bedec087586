import type { Agent } from 'undici';
import { EnrichmentSourceError, enrichmentAgent, requestJson } from './http-json.ts';

/** The Moz Links API v2 takes at most 50 targets per url_metrics call. */
export const MOZ_BATCH = 50;

export interface MozClientOptions {
  url: string;
  token: string;
  timeoutMs: number;
}

/**
 * Reads a v2 url_metrics answer: `{"results": [{"page": "moz.com/", "domain_authority": 91, …}]}`
 * with one result per target, in the order of the targets.
 */
export function parseUrlMetrics(body: unknown, targets: readonly string[]): Map<string, number | null> {
  const results = (body as { results?: unknown })?.results;
  if (!Array.isArray(results) || results.length !== targets.length) {
    throw new EnrichmentSourceError('moz', `expected ${targets.length} results in url_metrics`);
  }
  const authority = new Map<string, number | null>();
  targets.forEach((target, index) => {
    const value = (results[index] as { domain_authority?: unknown } | null)?.domain_authority;
    authority.set(target, typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null);
  });
  return authority;
}

/** Domain Authority from the Moz Links API v2 (`POST /v2/url_metrics`, `x-moz-token` auth). */
export class MozClient {
  readonly #agent: Agent;

  constructor(private readonly options: MozClientOptions) {
    this.#agent = enrichmentAgent(options.timeoutMs);
  }

  /** DA per domain (null where Moz has none), for at most MOZ_BATCH domains. */
  async domainAuthority(domains: readonly string[]): Promise<Map<string, number | null>> {
    if (domains.length > MOZ_BATCH) throw new RangeError(`at most ${MOZ_BATCH} targets per url_metrics call`);
    const body = await requestJson('moz', this.#agent, this.options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-moz-token': this.options.token },
      body: JSON.stringify({ targets: domains }),
    });
    return parseUrlMetrics(body, domains);
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}
