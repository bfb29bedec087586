import { type FeedFilters, parseFeedFilters } from '@repo/feed-index';
import type { Insertable } from 'kysely';
import type { FeedDomainTable } from '../src/db/schema.ts';
import { labelFacts } from '../src/lifecycle/label-facts.ts';
import { parseDomainObject, serverRecord } from '../src/rdap/parse.ts';
import type { RdapClient, RdapLookup, WhoisRecord } from '../src/rdap/types.ts';

/** No filter at all: every status, every row (parsed, so a new filter needs no line here). */
export const EVERY_ROW: FeedFilters = parseFeedFilters({ status: 'any' }, []);

/** A feed row with sensible defaults, for tests that query the feed directly. */
export function feedRow(
  domain: string,
  overrides: Partial<Insertable<FeedDomainTable>> = {},
): Insertable<FeedDomainTable> {
  const now = Date.parse('2026-03-10T12:00:00Z');
  return {
    domain,
    ...labelFacts(domain),
    status: 'dropped',
    status_since: now,
    left_zone_at: now - 35 * 86_400_000,
    dropped_at: now,
    verified_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** The RDAP document of a registered name with `status`, as a registry would send it. */
export function rdapDocument(domain: string, status: string[]): Record<string, unknown> {
  return { objectClassName: 'domain', ldhName: domain, status };
}

export function whois(domain: string, status: string[], fetchedAt: string): WhoisRecord {
  const parsed = parseDomainObject(rdapDocument(domain, status), domain);
  const source = `https://rdap.example/domain/${domain}`;
  return {
    ...parsed,
    source: 'rdap',
    server: 'https://rdap.example/',
    rdap_sources: [source],
    missing: [],
    fetched_at: fetchedAt,
    age_days: null,
    expires_in_days: null,
    records: { registry: serverRecord(parsed, source), registrar: null },
  };
}

/** An RDAP client whose answers a test scripts per domain (unit tests of the lifecycle rules). */
export class ScriptedRdap implements RdapClient {
  readonly answers = new Map<string, (now: string) => RdapLookup>();
  readonly asked: string[] = [];
  constructor(private readonly now: () => number) {}

  status(domain: string, ...status: string[]): void {
    this.answers.set(domain, (at) => ({
      kind: 'found',
      record: whois(domain, status, at),
      raw: { registry: rdapDocument(domain, status), registrar: null },
    }));
  }
  notFound(domain: string): void {
    this.answers.set(domain, (at) => ({
      kind: 'not_found',
      source: 'https://rdap.example',
      via: 'rdap',
      server: 'https://rdap.example/',
      checkedAt: at,
    }));
  }
  failing(domain: string): void {
    this.answers.set(domain, (at) => ({ kind: 'unknown', reason: 'timeout', message: 'timed out', checkedAt: at }));
  }
  async lookupDomain(name: string): Promise<RdapLookup> {
    this.asked.push(name);
    const at = new Date(this.now()).toISOString();
    const answer = this.answers.get(name);
    if (!answer) return { kind: 'unknown', reason: 'no_rdap_server', message: 'not scripted', checkedAt: at };
    return answer(at);
  }
}

export async function* changes(
  ...items: Array<[string, 'removed' | 'added']>
): AsyncGenerator<{ name: string; change: 'removed' | 'added' }> {
  for (const [name, change] of items) yield { name, change };
}
