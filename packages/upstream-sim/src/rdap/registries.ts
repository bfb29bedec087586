/**
 * The simulated RDAP servers: one per registry operator, each serving its TLDs under
 * `/rdap/<id>/` (RFC 9082 paths below that), plus one registrar server behind `related` links.
 */
export const SIM_REGISTRIES = {
  verisign: { name: 'VeriSign Global Registry Services', tlds: ['com', 'net'], thin: true },
  pir: { name: 'Public Interest Registry', tlds: ['org'], thin: false },
  'identity-digital': { name: 'Identity Digital Inc.', tlds: ['info', 'biz'], thin: false },
  centralnic: { name: 'CentralNic Ltd', tlds: ['xyz', 'online', 'site', 'store'], thin: false },
  zdns: { name: '.top Registry', tlds: ['top'], thin: false },
} as const;

export type SimRegistryId = keyof typeof SIM_REGISTRIES;
/** Every simulated server a fault can be set on. */
export type SimRdapServerId = SimRegistryId | 'registrar';

export const SIM_RDAP_SERVER_IDS = [...Object.keys(SIM_REGISTRIES), 'registrar'] as SimRdapServerId[];

export function isSimRegistryId(value: string): value is SimRegistryId {
  return Object.hasOwn(SIM_REGISTRIES, value);
}

export function isSimRdapServerId(value: string): value is SimRdapServerId {
  return value === 'registrar' || isSimRegistryId(value);
}

export function registryOf(tld: string): SimRegistryId | undefined {
  return (Object.keys(SIM_REGISTRIES) as SimRegistryId[]).find((id) =>
    (SIM_REGISTRIES[id].tlds as readonly string[]).includes(tld),
  );
}

/** The IANA bootstrap file (RFC 9224) the simulator publishes at /rdap/bootstrap/dns.json. */
export function bootstrapFile(origins: ReadonlyMap<SimRdapServerId, string>, pathPrefix: string, now: number) {
  return {
    version: '1.0',
    publication: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    description: 'RDAP bootstrap file for Domain Name System registrations (upstream simulator)',
    services: (Object.keys(SIM_REGISTRIES) as SimRegistryId[]).map((id) => [
      [...SIM_REGISTRIES[id].tlds],
      [`${origins.get(id)}${pathPrefix}/${id}/`],
    ]),
  };
}
