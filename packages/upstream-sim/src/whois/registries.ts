import { whoisTldsOf } from '../tld-routing.ts';
import type { WhoisFormat } from './format.ts';
import { auda } from './formats/auda.ts';
import { cnnic } from './formats/cnnic.ts';
import { denic } from './formats/denic.ts';
import { dnsBelgium } from './formats/dns-belgium.ts';
import { eurid } from './formats/eurid.ts';
import { godaddyUs } from './formats/godaddy-us.ts';
import { iis } from './formats/iis.ts';
import { internetnz } from './formats/internetnz.ts';
import { islandNetworks } from './formats/island-networks.ts';
import { jprs } from './formats/jprs.ts';
import { nicAt } from './formats/nic-at.ts';
import { nicIt } from './formats/nic-it.ts';
import { punktum } from './formats/punktum.ts';
import { redEs } from './formats/red-es.ts';
import { somnic } from './formats/somnic.ts';
import { tcinet } from './formats/tcinet.ts';

/**
 * The simulated port-43 WHOIS servers, one per real registry server, each on its own loopback
 * port. Which TLDs each serves is ../tld-routing.ts.
 */
export const SIM_WHOIS_REGISTRIES = {
  'godaddy-us': godaddyUs,
  auda,
  eurid,
  'red-es': redEs,
  'nic-it': nicIt,
  jprs,
  tcinet,
  cnnic,
  iis,
  punktum,
  'dns-belgium': dnsBelgium,
  'nic-at': nicAt,
  internetnz,
  'island-networks': islandNetworks,
  somnic,
  denic,
} as const satisfies Record<string, WhoisFormat>;

export type SimWhoisServerId = keyof typeof SIM_WHOIS_REGISTRIES;

export const SIM_WHOIS_SERVER_IDS = Object.keys(SIM_WHOIS_REGISTRIES) as SimWhoisServerId[];

export function isSimWhoisServerId(value: string): value is SimWhoisServerId {
  return Object.hasOwn(SIM_WHOIS_REGISTRIES, value);
}

export function whoisFormatOf(server: SimWhoisServerId): WhoisFormat {
  return SIM_WHOIS_REGISTRIES[server];
}

/** The TLDs a simulated WHOIS server answers for. */
export function whoisServerTlds(server: SimWhoisServerId): string[] {
  return whoisTldsOf(server);
}
