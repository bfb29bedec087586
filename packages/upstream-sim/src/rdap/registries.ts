import { rdapTldsOf, routeOf } from '../tld-routing.ts';

/**
 * The simulated RDAP servers: one per registry operator, each serving its TLDs under
 * `/rdap/<id>/` (RFC 9082 paths below that), plus one registrar server behind `related` links.
 * Which TLDs each serves, and whether the bootstrap file lists them, is ../tld-routing.ts.
 */
export const SIM_REGISTRIES = {
  verisign: { name: 'VeriSign Global Registry Services', thin: true },
  pir: { name: 'Public Interest Registry', thin: false },
  'identity-digital': { name: 'Identity Digital Inc.', thin: false },
  centralnic: { name: 'CentralNic Ltd', thin: false },
  zdns: { name: '.top Registry', thin: false },
  google: { name: 'Charleston Road Registry Inc.', thin: false },
  gmo: { name: 'GMO Registry, Inc.', thin: false },
  'godaddy-registry': { name: 'Registry Services, LLC', thin: false },
  aruba: { name: 'Aruba PEC S.p.A.', thin: false },
  nominet: { name: 'Nominet UK', thin: false },
  cira: { name: 'Canadian Internet Registration Authority', thin: false },
  afnic: { name: 'AFNIC', thin: false },
  sidn: { name: 'SIDN', thin: false },
  nixi: { name: 'National Internet Exchange of India', thin: false },
  'nic-br': { name: 'NIC.br', thin: false },
  norid: { name: 'Norid AS', thin: false },
  traficom: { name: 'Finnish Transport and Communications Agency Traficom', thin: false },
  nask: { name: 'NASK', thin: false },
  ltt: { name: 'Libya Telecom and Technology', thin: false },
  tonic: { name: 'Tonic Domains Corp.', thin: false },
  denic: { name: 'DENIC eG', thin: false },
  switch: { name: 'SWITCH', thin: false },
  punktum: { name: 'Punktum dk A/S', thin: false },
  auda: { name: '.au Domain Administration Ltd', thin: false },
} as const;

export type SimRegistryId = keyof typeof SIM_REGISTRIES;
/** Every simulated server a fault can be set on. */
export type SimRdapServerId = SimRegistryId | 'registrar';

export const SIM_REGISTRY_IDS = Object.keys(SIM_REGISTRIES) as SimRegistryId[];
export const SIM_RDAP_SERVER_IDS = [...SIM_REGISTRY_IDS, 'registrar'] as SimRdapServerId[];

export function isSimRegistryId(value: string): value is SimRegistryId {
  return Object.hasOwn(SIM_REGISTRIES, value);
}

export function isSimRdapServerId(value: string): value is SimRdapServerId {
  return value === 'registrar' || isSimRegistryId(value);
}

export function registryOf(tld: string): SimRegistryId | undefined {
  const registry = routeOf(tld)?.rdap;
  return registry !== undefined && isSimRegistryId(registry) ? registry : undefined;
}

/** The IANA bootstrap file (RFC 9224) the simulator publishes at /rdap/bootstrap/dns.json. */
export function bootstrapFile(origins: ReadonlyMap<SimRdapServerId, string>, pathPrefix: string, now: number) {
  return {
    version: '1.0',
    publication: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    description: 'RDAP bootstrap file for Domain Name System registrations (upstream simulator)',
    services: SIM_REGISTRY_IDS.filter((id) => rdapTldsOf(id, true).length > 0).map((id) => [
      rdapTldsOf(id, true),
      [`${origins.get(id)}${pathPrefix}/${id}/`],
    ]),
  };
}

/** The TLDs whose registries publish RDAP servers IANA's file lacks, each with its simulated server's base URL. */
export function extraServers(origins: ReadonlyMap<SimRdapServerId, string>, pathPrefix: string) {
  const servers: Record<string, string[]> = {};
  for (const id of SIM_REGISTRY_IDS) {
    for (const tld of rdapTldsOf(id, false)) servers[tld] = [`${origins.get(id)}${pathPrefix}/${id}/`];
  }
  return servers;
}
