/**
 * How each simulated TLD is reached, mirroring how the real TLD is reached, in one table:
 *   - `rdap` + `listed: true`: the registry's RDAP server is in IANA's bootstrap file, so the
 *     simulator's own bootstrap file (/rdap/bootstrap/dns.json) lists it;
 *   - `rdap` + `listed: false`: the registry publishes an RDAP server IANA's file lacks; the
 *     simulator serves it but leaves it out of its bootstrap file, and the service reaches it
 *     through RDAP_EXTRA_SERVERS (`sim.rdap.extraServers()`);
 *   - `whois`: a port-43 WHOIS server (RFC 3912) plays the TLD's real WHOIS server (a TLD with
 *     RDAP keeps it where the real registry runs both and the WHOIS format is simulated).
 * Registry ids name the real operator of the server (see rdap/registries.ts, whois/registries.ts).
 *
 * Classified from the service's data (test/tld-routing.test.ts compares them): IANA's dns.json
 * of 2026-07-23 (apps/domain-intel/test/fixtures/real/iana/dns.json) for `listed`,
 * apps/domain-intel/src/tlds/data/rdap-extra-servers.json for the unlisted RDAP servers, and
 * root-zone.json for the WHOIS servers. Two groupings keep the simulator's first registries
 * where tests rely on them to slow every tracked TLD: .biz stays with Identity Digital (the
 * real server, rdap.nic.biz, is GoDaddy Registry's) and online, site, store, tech and space
 * with CentralNic (IANA's file now points them at Radix's rdap.radix.host).
 */
export interface SimTldRoute {
  rdap?: string;
  /** Whether the simulator's bootstrap file lists the TLD (IANA's file does). */
  listed?: boolean;
  whois?: string;
}

export const SIM_TLD_ROUTING = {
  com: { rdap: 'verisign', listed: true },
  net: { rdap: 'verisign', listed: true },
  cc: { rdap: 'verisign', listed: true },
  tv: { rdap: 'verisign', listed: true },
  org: { rdap: 'pir', listed: true },
  info: { rdap: 'identity-digital', listed: true },
  biz: { rdap: 'identity-digital', listed: true },
  ai: { rdap: 'identity-digital', listed: true },
  live: { rdap: 'identity-digital', listed: true },
  pro: { rdap: 'identity-digital', listed: true },
  agency: { rdap: 'identity-digital', listed: true },
  studio: { rdap: 'identity-digital', listed: true },
  world: { rdap: 'identity-digital', listed: true },
  life: { rdap: 'identity-digital', listed: true },
  io: { rdap: 'identity-digital', listed: false },
  me: { rdap: 'identity-digital', listed: false },
  sh: { rdap: 'identity-digital', listed: false },
  ac: { rdap: 'identity-digital', listed: false },
  xyz: { rdap: 'centralnic', listed: true },
  online: { rdap: 'centralnic', listed: true },
  site: { rdap: 'centralnic', listed: true },
  store: { rdap: 'centralnic', listed: true },
  tech: { rdap: 'centralnic', listed: true },
  space: { rdap: 'centralnic', listed: true },
  co: { rdap: 'centralnic', listed: false },
  top: { rdap: 'zdns', listed: true },
  app: { rdap: 'google', listed: true },
  dev: { rdap: 'google', listed: true },
  shop: { rdap: 'gmo', listed: true },
  club: { rdap: 'godaddy-registry', listed: true },
  design: { rdap: 'godaddy-registry', listed: true },
  cloud: { rdap: 'aruba', listed: true },
  uk: { rdap: 'nominet', listed: true },
  ca: { rdap: 'cira', listed: true },
  fr: { rdap: 'afnic', listed: true },
  nl: { rdap: 'sidn', listed: true },
  in: { rdap: 'nixi', listed: true },
  br: { rdap: 'nic-br', listed: true },
  no: { rdap: 'norid', listed: true },
  fi: { rdap: 'traficom', listed: true },
  pl: { rdap: 'nask', listed: true },
  ly: { rdap: 'ltt', listed: true },
  to: { rdap: 'tonic', listed: true },
  de: { rdap: 'denic', listed: false, whois: 'denic' },
  ch: { rdap: 'switch', listed: false },
  us: { rdap: 'godaddy-registry', listed: false, whois: 'godaddy-us' },
  dk: { rdap: 'punktum', listed: false, whois: 'punktum' },
  au: { rdap: 'auda', listed: true, whois: 'auda' },
  eu: { whois: 'eurid' },
  es: { whois: 'red-es' },
  it: { whois: 'nic-it' },
  jp: { whois: 'jprs' },
  ru: { whois: 'tcinet' },
  cn: { whois: 'cnnic' },
  se: { whois: 'iis' },
  be: { whois: 'dns-belgium' },
  at: { whois: 'nic-at' },
  nz: { whois: 'internetnz' },
  gg: { whois: 'island-networks' },
  so: { whois: 'somnic' },
} as const satisfies Record<string, SimTldRoute>;

export type SimTld = keyof typeof SIM_TLD_ROUTING;

/** Every TLD of the table. */
export const SIM_TLDS = Object.keys(SIM_TLD_ROUTING) as SimTld[];

export function routeOf(tld: string): SimTldRoute | undefined {
  return Object.hasOwn(SIM_TLD_ROUTING, tld) ? (SIM_TLD_ROUTING as Record<string, SimTldRoute>)[tld] : undefined;
}

/** The TLDs one RDAP registry serves, `listed` or not in the simulator's bootstrap file. */
export function rdapTldsOf(registry: string, listed?: boolean): string[] {
  return SIM_TLDS.filter((tld) => {
    const route: SimTldRoute = SIM_TLD_ROUTING[tld];
    return route.rdap === registry && (listed === undefined || route.listed === listed);
  });
}

/** The TLDs one WHOIS registry serves. */
export function whoisTldsOf(registry: string): string[] {
  return SIM_TLDS.filter((tld) => (SIM_TLD_ROUTING[tld] as SimTldRoute).whois === registry);
}
