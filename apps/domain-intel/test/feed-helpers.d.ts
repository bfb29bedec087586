import type { Insertable } from 'kysely';
import type { FeedDomainTable } from '../src/db/schema.ts';
import type { RdapClient, RdapLookup, WhoisRecord } from '../src/rdap/types.ts';
/** A feed row with sensible defaults, for tests that query the feed directly. */
export declare function feedRow(
  domain: string,
  overrides?: Partial<Insertable<FeedDomainTable>>,
): Insertable<FeedDomainTable>;
export declare function whois(domain: string, status: string[], fetchedAt: string): WhoisRecord;
/** An RDAP client whose answers a test scripts per domain (unit tests of the lifecycle rules). */
export declare class ScriptedRdap implements RdapClient {
  private readonly now;
  readonly answers: Map<string, (now: string) => RdapLookup>;
  readonly asked: string[];
  constructor(now: () => number);
  status(domain: string, ...status: string[]): void;
  notFound(domain: string): void;
  failing(domain: string): void;
  lookupDomain(name: string): Promise<RdapLookup>;
}
export declare function changes(...items: Array<[string, 'removed' | 'added']>): AsyncGenerator<{
  name: string;
  change: 'removed' | 'added';
}>;
