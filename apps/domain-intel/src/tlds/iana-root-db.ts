/**
 * Readers of IANA's root-zone database as published on www.iana.org: the index page
 * (https://www.iana.org/domains/root/db, one table row per TLD with its type) and a TLD's own
 * delegation page (https://www.iana.org/domains/root/db/<tld>.html, which names its WHOIS server).
 * IANA publishes this database only as HTML, so these read the page's fixed markup; they are used
 * to build and re-check data/root-zone.json, never on a request.
 */

import { TLD_TYPES } from '@repo/contracts/domain-intel';

export type TldType = (typeof TLD_TYPES)[number];

const isTldType = (value: string): value is TldType => (TLD_TYPES as readonly string[]).includes(value);

/**
 * Every row of the index page as TLD (the `xn--` form, taken from the row's link, lower case) →
 * type. Rows of TLDs that are no longer delegated are in the page too; the caller keeps the ones
 * of the current TLD list.
 */
export function parseRootDbIndex(html: string): Map<string, TldType> {
  const types = new Map<string, TldType>();
  const row = /<a href="\/domains\/root\/db\/([^".]+)\.html">[^<]*<\/a><\/span><\/td>\s*<td>([^<]*)<\/td>/g;
  for (const match of html.matchAll(row)) {
    const tld = match[1]!.toLowerCase();
    const type = match[2]!.trim();
    if (!isTldType(type)) throw new Error(`root-zone database index: .${tld} has an unknown type "${type}"`);
    types.set(tld, type);
  }
  return types;
}

/** The WHOIS server a TLD's delegation page names, or null when the page names none. */
export function parseRootDbPageWhois(html: string): string | null {
  const match = /<b>WHOIS Server:<\/b>\s*([^\s<]+)/.exec(html);
  return match ? match[1]!.toLowerCase() : null;
}
