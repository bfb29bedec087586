import { domainToUnicode } from 'node:url';
import type { TldInfo } from '@repo/contracts/domain-intel';
import type { RdapServerOrigin } from '../rdap/bootstrap.ts';
import { loadRootZone } from '../tlds/tld-data.ts';
import { whoisServerProfile } from '../whois/server-profiles.ts';
import { serverKey } from '../whois/transport.ts';
import type { WhoisDirectory } from './whois-directory.ts';

export interface TldDirectorySources {
  /** Every TLD with an RDAP server (the bootstrap's allServers). */
  rdapServers(): Promise<{
    fileLoaded: boolean;
    servers: ReadonlyMap<string, { baseUrls: string[]; origin: RdapServerOrigin }>;
  }>;
  whoisServers: WhoisDirectory;
  trackedTlds: readonly string[];
}

/**
 * How every TLD of the root zone is answered (GET /v1/tlds): the same sources the registry client
 * uses, in the same order (RDAP first, then port-43 WHOIS), so the table cannot promise what a
 * lookup would not do.
 */
export async function describeTlds(
  sources: TldDirectorySources,
): Promise<{ tlds: TldInfo[]; rootZoneVersion: string; rdapBootstrapLoaded: boolean }> {
  const rootZone = loadRootZone();
  const { fileLoaded, servers } = await sources.rdapServers();
  const tracked = new Set(sources.trackedTlds);
  const tlds = rootZone.entries.map((entry): TldInfo => {
    const rdap = servers.get(entry.tld);
    const target = sources.whoisServers.targetFor(entry.tld);
    const patterns = target ? (whoisServerProfile(target.authority)?.not_found.length ?? 0) > 0 : false;
    const answeredBy = rdap ? 'rdap' : target ? 'whois' : null;
    return {
      tld: entry.tld,
      unicode_tld: domainToUnicode(entry.tld) || entry.tld,
      type: entry.type,
      rdap: rdap ? { servers: rdap.baseUrls, origin: rdap.origin } : null,
      whois: target
        ? { server: serverKey(target.address), authority: target.authority, answer_patterns: patterns }
        : null,
      answered_by: answeredBy,
      availability: rdap || patterns ? 'full' : target ? 'registered_only' : 'none',
      whois_record: answeredBy !== null,
      drop_feed: tracked.has(entry.tld),
    };
  });
  return { tlds, rootZoneVersion: rootZone.published.version, rdapBootstrapLoaded: fileLoaded };
}
