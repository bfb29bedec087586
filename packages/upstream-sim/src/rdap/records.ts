import type { SimDomain } from '../world.ts';
import { SIM_REGISTRIES, type SimRegistryId } from './registries.ts';

/**
 * RFC 9083 domain objects built from the simulated world, shaped like the real servers:
 * Verisign's thin .com/.net records (registrar and abuse contact, no registrant), the
 * thick registries' records with the registrant redacted (RFC 9537 `redacted`), and the
 * registrar's own record with a full jCard registrant.
 */
const CONFORMANCE = ['rdap_level_0', 'icann_rdap_technical_implementation_guide_1', 'icann_rdap_response_profile_1'];
const NOTICES = [
  {
    title: 'Terms of Use',
    description: ['Service subject to Terms of Use.'],
    links: [{ href: 'https://www.example/terms', type: 'text/html' }],
  },
];

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

function events(domain: SimDomain, now: number) {
  return [
    { eventAction: 'registration', eventDate: iso(domain.createdAt) },
    { eventAction: 'expiration', eventDate: iso(domain.expiresAt) },
    { eventAction: 'last changed', eventDate: iso(domain.updatedAt) },
    { eventAction: 'last update of RDAP database', eventDate: iso(now) },
  ];
}

function registrarEntity(domain: SimDomain, registrarRecordUrl: string | null) {
  const { registrar } = domain;
  return {
    objectClassName: 'entity',
    handle: registrar.ianaId,
    roles: ['registrar'],
    publicIds: [{ type: 'IANA Registrar ID', identifier: registrar.ianaId }],
    vcardArray: [
      'vcard',
      [
        ['version', {}, 'text', '4.0'],
        ['fn', {}, 'text', registrar.name],
      ],
    ],
    links: [
      { value: registrar.url, rel: 'about', href: registrar.url, type: 'text/html' },
      ...(registrarRecordUrl
        ? [{ value: registrarRecordUrl, rel: 'related', href: registrarRecordUrl, type: 'application/rdap+json' }]
        : []),
    ],
    entities: [
      {
        objectClassName: 'entity',
        roles: ['abuse'],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', ''],
            ['tel', { type: 'voice' }, 'uri', 'tel:+1.5555550100'],
            ['email', {}, 'text', `abuse@${new URL(registrar.url).hostname}`],
          ],
        ],
      },
    ],
  };
}

function nameservers(domain: SimDomain) {
  return domain.nameservers.map((name) => ({ objectClassName: 'nameserver', ldhName: name.toUpperCase() }));
}

export function registryRecord(
  domain: SimDomain,
  registry: SimRegistryId,
  selfUrl: string,
  registrarRecordUrl: string | null,
  now: number,
) {
  const thin = SIM_REGISTRIES[registry].thin;
  const redactedRegistrant = {
    objectClassName: 'entity',
    handle: 'REDACTED',
    roles: ['registrant'],
    remarks: [{ title: 'REDACTED FOR PRIVACY', type: 'object redacted due to authorization' }],
    vcardArray: [
      'vcard',
      [
        ['version', {}, 'text', '4.0'],
        ['fn', {}, 'text', ''],
        ['adr', { cc: 'US' }, 'text', ['', '', '', '', 'CA', '', '']],
      ],
    ],
  };
  return {
    objectClassName: 'domain',
    handle: `${domain.name.replace(/\W/g, '_').toUpperCase()}-SIM`,
    ldhName: thin ? domain.name.toUpperCase() : domain.name,
    links: [
      { value: selfUrl, rel: 'self', href: selfUrl, type: 'application/rdap+json' },
      ...(thin && registrarRecordUrl
        ? [{ value: registrarRecordUrl, rel: 'related', href: registrarRecordUrl, type: 'application/rdap+json' }]
        : []),
    ],
    status: domain.status,
    entities: [registrarEntity(domain, thin ? null : registrarRecordUrl), ...(thin ? [] : [redactedRegistrant])],
    events: events(domain, now),
    secureDNS: { delegationSigned: false },
    nameservers: nameservers(domain),
    ...(thin
      ? {}
      : {
          redacted: [
            {
              name: { type: 'Registrant Name' },
              prePath: "$.entities[?(@.roles[0]=='registrant')].vcardArray[1][1]",
              method: 'emptyValue',
            },
            { name: { type: 'Registrant Email' }, method: 'removal' },
          ],
        }),
    rdapConformance: [...CONFORMANCE, ...(thin ? [] : ['redacted'])],
    notices: NOTICES,
  };
}

/** The registrar's record: full registrant contact, as registrars publish it. */
export function registrarRecord(domain: SimDomain, selfUrl: string, now: number) {
  const owner = domain.name.split('.')[0] ?? domain.name;
  return {
    objectClassName: 'domain',
    ldhName: domain.name,
    links: [{ value: selfUrl, rel: 'self', href: selfUrl, type: 'application/rdap+json' }],
    status: domain.status,
    entities: [
      registrarEntity(domain, null),
      {
        objectClassName: 'entity',
        roles: ['registrant'],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', `${owner[0]?.toUpperCase() ?? ''}${owner.slice(1)} Owner`],
            ['org', {}, 'text', `${owner} Holdings LLC`],
            ['adr', { cc: 'US' }, 'text', ['', '', '1 Main Street', 'Springfield', 'IL', '62701', 'United States']],
            ['email', {}, 'text', `hostmaster@${domain.name}`],
            ['tel', { type: 'voice' }, 'uri', 'tel:+1.2175550100'],
          ],
        ],
      },
    ],
    events: events(domain, now),
    nameservers: nameservers(domain),
    rdapConformance: CONFORMANCE,
    notices: NOTICES,
  };
}

export function rdapError(status: number, title: string, description: string) {
  return { errorCode: status, title, description: [description], rdapConformance: ['rdap_level_0'] };
}
