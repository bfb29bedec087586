import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  MalformedRdapError,
  mergeRegistrarRecord,
  normalizeStatus,
  parseDomainObject,
  registrarLink,
} from '../src/rdap/parse.ts';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/rdap/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** The fields /v1/whois had before the additive ones; their values must not change. */
const LEGACY_FIELDS = [
  'domain',
  'unicode_name',
  'registered',
  'registrar',
  'created_at',
  'updated_at',
  'expires_at',
  'nameservers',
  'status',
  'dnssec',
  'registrant',
] as const;

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}

describe('RFC 9083 parsing, across registries', () => {
  it('Verisign (thin .com): registrar with abuse contact, no registrant, related link to the registrar', () => {
    const body = fixture('verisign-google.com');
    const parsed = parseDomainObject(body, 'google.com');
    assert.deepEqual(pick(parsed, LEGACY_FIELDS), {
      domain: 'google.com',
      unicode_name: null,
      registered: true,
      registrar: {
        name: 'MarkMonitor Inc.',
        iana_id: '292',
        url: null,
        abuse_email: 'abusecomplaints@markmonitor.com',
        abuse_phone: '+1.2086851750',
        handle: '292',
      },
      created_at: '1997-09-15T04:00:00.000Z',
      updated_at: '2019-09-09T15:39:04.000Z',
      expires_at: '2028-09-14T04:00:00.000Z',
      nameservers: ['ns1.google.com', 'ns2.google.com', 'ns3.google.com', 'ns4.google.com'],
      status: [
        'client delete prohibited',
        'client transfer prohibited',
        'client update prohibited',
        'server delete prohibited',
        'server transfer prohibited',
        'server update prohibited',
      ],
      dnssec: false,
      registrant: null,
    });
    assert.equal(
      registrarLink(body, 'https://rdap.verisign.com/com/v1/domain/google.com'),
      'https://rdap.markmonitor.com/rdap/domain/GOOGLE.COM',
    );
  });

  it('PIR (.org): registrant redacted per RFC 9537 and remarks, organisation and country kept', () => {
    const parsed = parseDomainObject(fixture('pir-wikipedia.org'), 'wikipedia.org');
    assert.deepEqual(parsed.registrant, {
      name: null,
      organization: 'Wikimedia Foundation, Inc.',
      email: null,
      country: 'US',
      redacted: true,
    });
    assert.equal(parsed.created_at, '2001-01-13T00:12:14.000Z');
    assert.equal(parsed.registrar?.abuse_phone, '+1.2086851750');
    assert.equal(registrarLink(fixture('pir-wikipedia.org'), 'https://rdap.publicinterestregistry.org/rdap/'), null);
  });

  it('Identity Digital (.info): DNSSEC, trailing-dot and uppercase nameservers, top-level abuse entity, url', () => {
    const parsed = parseDomainObject(fixture('identity-digital-nic.info'), 'nic.info');
    assert.equal(parsed.dnssec, true);
    assert.equal(parsed.unicode_name, 'nic.info');
    assert.deepEqual(parsed.nameservers, ['a0.info.afilias-nst.info', 'b0.info.afilias-nst.org']);
    assert.deepEqual(parsed.registrar, {
      name: 'Identity Digital Registry Reserved',
      iana_id: '9999',
      url: 'https://www.identity.digital',
      abuse_email: 'abuse@identity.digital',
      abuse_phone: '+1.2157061000',
      handle: '9999',
    });
    assert.equal(parsed.registrant, null);
  });

  it('CentralNic (.xyz): placeholder values read as redacted, related link inside the registrar entity', () => {
    const body = fixture('centralnic-nic.xyz');
    const parsed = parseDomainObject(body, 'nic.xyz');
    assert.deepEqual(parsed.registrant, {
      name: null,
      organization: 'XYZ.COM LLC',
      email: null,
      country: 'US',
      redacted: true,
    });
    assert.equal(parsed.created_at, '2014-02-19T00:00:00.000Z');
    assert.equal(parsed.updated_at, '2025-02-04T17:07:46.200Z');
    assert.deepEqual(parsed.status, ['client transfer prohibited', 'server transfer prohibited', 'active']);
    assert.equal(
      registrarLink(body, 'https://rdap.centralnic.com/xyz/'),
      'https://rdap.internet.bs/rdap/domain/nic.xyz',
    );
  });

  it('Google Registry (.dev): registrar URL from its about link, DNSSEC signed', () => {
    const parsed = parseDomainObject(fixture('google-registry-web.dev'), 'web.dev');
    assert.equal(parsed.registrar?.url, 'http://www.markmonitor.com');
    assert.equal(parsed.dnssec, true);
    assert.equal(parsed.expires_at, '2026-11-20T19:13:38.618Z');
  });

  it('a ccTLD (SIDN .nl): no IANA id, no expiry, EPP-spelled status normalised', () => {
    const parsed = parseDomainObject(fixture('sidn-sidn.nl'), 'sidn.nl');
    assert.equal(parsed.registrar?.iana_id, null);
    assert.equal(parsed.registrar?.name, 'Stichting Internet Domeinregistratie Nederland');
    assert.equal(parsed.expires_at, null);
    assert.deepEqual(parsed.status, ['active', 'client update prohibited']);
    assert.equal(parsed.registrant, null);
  });

  it("a registrar's record with a full jCard gives the registrant; merged, the registry keeps dates and status", () => {
    const registry = parseDomainObject(fixture('pir-wikipedia.org'), 'example-company.org');
    const registrar = parseDomainObject(fixture('registrar-full-jcard'), 'example-company.org');
    assert.deepEqual(registrar.registrant, {
      name: 'Jane Q. Example',
      organization: 'Example Company B.V.',
      email: 'jane@example-company.org',
      country: 'NL',
      redacted: false,
    });
    const merged = mergeRegistrarRecord(registry, registrar);
    assert.deepEqual(merged.registrant, registrar.registrant);
    assert.equal(merged.created_at, registry.created_at);
    assert.deepEqual(merged.status, registry.status);
  });

  it('a redacted registrar record: placeholders dropped, a privacy service name kept as data', () => {
    const parsed = parseDomainObject(fixture('registrar-redacted'), 'private-person.com');
    assert.deepEqual(parsed.registrant, {
      name: null,
      organization: 'Privacy service provided by Withheld for Privacy ehf',
      email: null,
      country: 'IS',
      redacted: true,
    });
  });

  it('JSContact cards (RDAP JSContact extension) are read like jCards', () => {
    const parsed = parseDomainObject(fixture('registrar-jscontact'), 'jscontact-example.net');
    assert.deepEqual(parsed.registrant, {
      name: 'Kari Nordmann',
      organization: 'Nordmann AS',
      email: 'kari@jscontact-example.net',
      country: 'NO',
      redacted: false,
    });
  });

  it('reads the card under `jscontact_card`, the member name of the current JSContact draft', () => {
    // The same answer as above with the card under the member draft-ietf-regext-rdap-jscontact now
    // names (and ICANN's icann-rdap client reads): it must give the same registrant.
    const body = fixture('registrar-jscontact');
    const [registrant] = body.entities as Record<string, unknown>[];
    registrant!.jscontact_card = registrant!.jscard;
    delete registrant!.jscard;
    body.rdapConformance = ['rdap_level_0', 'jscontact'];
    const parsed = parseDomainObject(body, 'jscontact-example.net');
    assert.equal(parsed.registrant?.name, 'Kari Nordmann');
    assert.equal(parsed.registrant?.organization, 'Nordmann AS');
    assert.equal(parsed.contacts.registrant?.phone, '+47.22123456');
  });

  it('refuses what is not a domain object; tolerates missing members', () => {
    assert.throws(() => parseDomainObject({ objectClassName: 'entity' }, 'a.com'), MalformedRdapError);
    assert.throws(() => parseDomainObject({ errorCode: 404, title: 'Not Found' }, 'a.com'), MalformedRdapError);
    const bare = parseDomainObject(
      { objectClassName: 'domain', ldhName: 'a.com', events: 'nonsense', entities: [null, 3] },
      'a.com',
    );
    assert.deepEqual(
      [bare.registrar, bare.created_at, bare.nameservers, bare.status, bare.dnssec],
      [null, null, [], [], null],
    );
  });

  it('normalises EPP status spellings to RFC 8056', () => {
    assert.equal(normalizeStatus('clientTransferProhibited'), 'client transfer prohibited');
    assert.equal(normalizeStatus('pendingDelete'), 'pending delete');
    assert.equal(normalizeStatus('redemption period'), 'redemption period');
  });
});
