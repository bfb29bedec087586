import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * What we know of each WHOIS server's ways (data/whois-answers.json, read off real answers: see
 * that file's `source` lists): its own "no such domain", throttling and reserved texts, its
 * charset, and the query it wants. Keyed by the server's host name as IANA's root-zone database
 * names it, so an address override (a mirror, the simulator) is still read with the TLD's own table.
 */
const profileSchema = z.object({
  source: z.array(z.string().min(1)).min(1),
  not_found: z.array(z.string()),
  rate_limited: z.array(z.string()),
  reserved: z.array(z.string()).optional(),
  charset: z.string().min(1),
  /** `{name}` stands for the name asked, e.g. `-T dn,ace {name}` (DENIC), `domain {name}` (Verisign). */
  query: z
    .string()
    .refine((query) => query.includes('{name}'), 'a query format holds {name}')
    .optional(),
  /**
   * Other names IANA has given the same server (a registry renaming its host keeps its answers):
   * the table is keyed by the name the corpus was recorded under, IANA's root zone may use the new one.
   */
  aliases: z.array(z.object({ host: z.string().min(1), source: z.string().min(1) })).optional(),
});
const tableSchema = z.object({ servers: z.record(z.string(), profileSchema) });

export type WhoisServerProfile = z.infer<typeof profileSchema>;

export const WHOIS_ANSWERS_FILE = fileURLToPath(new URL('../tlds/data/whois-answers.json', import.meta.url));

let table: Map<string, WhoisServerProfile> | undefined;

/** The profile of a server (host name as IANA names it), or undefined when we have none. */
export function whoisServerProfile(host: string): WhoisServerProfile | undefined {
  table ??= readWhoisServerProfiles(WHOIS_ANSWERS_FILE);
  return table.get(host.toLowerCase());
}

export function readWhoisServerProfiles(file: string): Map<string, WhoisServerProfile> {
  const parsed = tableSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  const profiles = new Map<string, WhoisServerProfile>();
  for (const [host, profile] of Object.entries(parsed.data.servers)) {
    for (const name of [host, ...(profile.aliases ?? []).map((alias) => alias.host)]) {
      if (profiles.has(name.toLowerCase())) throw new Error(`${file}: ${name} has two profiles`);
      profiles.set(name.toLowerCase(), profile);
    }
  }
  return profiles;
}

/** The query line for `name` at a server (without the CRLF the transport adds). */
export function whoisQuery(profile: WhoisServerProfile | undefined, name: string): string {
  return profile?.query ? profile.query.replace('{name}', name) : name;
}
