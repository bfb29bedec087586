/**
 * The 60 TLDs customers check most (this project's list, from registrars' and competitors'
 * availability pages: the big gTLDs, the start-up ccTLDs and the largest national ccTLDs).
 */
export const TOP_60_TLDS = [
  ...['com', 'net', 'org', 'io', 'co', 'ai', 'app', 'dev', 'me', 'info'],
  ...['biz', 'xyz', 'online', 'site', 'store', 'tech', 'shop', 'club', 'live', 'pro'],
  ...['us', 'uk', 'de', 'ca', 'au', 'fr', 'nl', 'eu', 'ch', 'es'],
  ...['it', 'in', 'br', 'jp', 'ru', 'cn', 'se', 'no', 'dk', 'fi'],
  ...['pl', 'be', 'at', 'nz', 'tv', 'cc', 'gg', 'ly', 'to', 'sh'],
  ...['ac', 'so', 'agency', 'studio', 'design', 'cloud', 'space', 'world', 'top', 'life'],
] as const;

/**
 * The gaps we know of, each with why it stays a gap rather than a guess. A test asserts exactly
 * these, so a new gap fails it and a closed one must be taken off this list.
 */
export const KNOWN_GAPS: Readonly<Record<string, string>> = {
  // IANA renamed .nz's server from whois.srs.net.nz to whois.irs.net.nz in November 2024, and the new
  // server answers in another format (a recorded registered answer: fixtures/real/whois/whois.irs.net.nz).
  // No free-name answer of it is recorded in any public source we found, and no registry document names
  // an RDAP server for .nz (hand-written tables disagree), so a free .nz name stays `available: null`.
  nz: 'registered_only through whois',
};
