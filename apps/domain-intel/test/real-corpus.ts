import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ParsedDomain } from '../src/rdap/parse.ts';

/** The corpus of real upstream data (see fixtures/real/SOURCES.md for where each file comes from). */
export const REAL_DIR = path.join(import.meta.dirname, 'fixtures', 'real');

/** Paths (relative to fixtures/real) of every file under `kind` (e.g. `rdap`, `zones`). */
export function realFiles(kind: string): string[] {
  return readdirSync(path.join(REAL_DIR, kind), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(REAL_DIR, path.join(entry.parentPath, entry.name)))
    .sort();
}

export function readReal(file: string): string {
  return readFileSync(path.join(REAL_DIR, file), 'utf8');
}

export function readRealJson(file: string): Record<string, unknown> {
  return JSON.parse(readReal(file)) as Record<string, unknown>;
}

/** Every file listed in SOURCES.md, so a file without its origin fails the corpus test. */
export function filesWithSources(): Set<string> {
  const rows = readReal('SOURCES.md').split('\n');
  return new Set(rows.flatMap((row) => /^\| `([^`]+)` \|/.exec(row)?.slice(1) ?? []));
}

/**
 * Values read by hand off the raw files (never from the parser's output). Each entry names the
 * quirk of the real server it pins down.
 */
export const EXPECTED: Record<string, { name: string; expect: (record: ParsedDomain) => void }> = {
  'rdap/verisign/google.com.json': {
    name: 'google.com',
    expect: (r) => {
      assert.equal(r.registry_domain_id, '2138514_DOMAIN_COM-VRSN');
      assert.equal(r.created_at, '1997-09-15T04:00:00.000Z');
      assert.equal(r.expires_at, '2028-09-14T04:00:00.000Z');
      assert.equal(r.dnssec, true);
      assert.deepEqual(r.nameservers, ['ns1.google.com', 'ns2.google.com', 'ns3.google.com', 'ns4.google.com']);
      assert.equal(r.registrar?.iana_id, '292');
      assert.ok(r.status_epp.includes('serverTransferProhibited'));
    },
  },
  // Verisign gives the IANA ID only as the registrar entity's handle (no publicIds).
  'rdap/verisign/20c.com.json': {
    name: '20c.com',
    expect: (r) => {
      assert.equal(r.registrar?.iana_id, '113');
      assert.equal(r.registrar?.name, 'CSL Computer Service Langenbach GmbH d/b/a joker.com');
      assert.equal(r.updated_at, '2024-06-25T03:31:37.000Z');
      assert.deepEqual(r.status, []);
      assert.deepEqual(r.dnssec_details, { delegation_signed: false, ds_records: [] });
    },
  },
  'rdap/verisign/themarquetry.com.json': {
    name: 'themarquetry.com',
    expect: (r) => {
      assert.equal(r.registrar?.iana_id, '1647');
      assert.equal(r.expires_at, '2022-03-16T17:07:37.000Z');
    },
  },
  // Uniregistry: IANA ID as the handle only, under an ICANN profile.
  'rdap/uniregistry/microsoft.click.json': {
    name: 'microsoft.click',
    expect: (r) => {
      assert.equal(r.registrar?.iana_id, '292');
      assert.equal(r.registrar?.name, 'MarkMonitor Inc.');
      assert.equal(r.created_at, '2014-11-12T19:15:55.283Z');
    },
  },
  // Norid: no IANA ID (a Norid registrar ID instead), country written as a name, no expiry.
  'rdap/norid/norway.no.json': {
    name: 'norway.no',
    expect: (r) => {
      assert.deepEqual(r.registrar, {
        name: 'Domeneshop AS',
        iana_id: null,
        url: 'https://domeneshop.no',
        abuse_email: null,
        abuse_phone: null,
        handle: 'reg42-NORID',
      });
      assert.equal(r.created_at, '2017-01-24T12:09:23.000Z');
      assert.equal(r.updated_at, '2021-01-14T05:16:59.000Z');
      assert.equal(r.expires_at, null);
      assert.equal(r.contacts.technical?.country, 'NO');
      assert.equal(r.contacts.technical?.phone, '+47.22943333');
      assert.equal(r.contacts.technical?.email, 'hostmaster@domeneshop.no');
    },
  },
  // AFNIC: microsecond fractions, a transfer event, a registrar fax as a second `tel`.
  'rdap/afnic/lemonde.fr.json': {
    name: 'lemonde.fr',
    expect: (r) => {
      assert.equal(r.updated_at, '2024-06-12T22:09:39.881Z');
      assert.equal(r.transferred_at, '2022-06-09T22:08:09.000Z');
      assert.equal(r.registrar?.iana_id, '1251');
      assert.equal(r.registrar?.handle, 'RAR24-FRNIC');
      assert.deepEqual(r.contacts.registrant, {
        handle: 'SEDM254-FRNIC',
        name: 'SOCIETE EDITRICE du monde',
        organization: 'SOCIETE EDITRICE DU MONDE',
        email: 'domain_names@lemonde.fr',
        phone: '+33.157282224',
        fax: null,
        street: ['67-69 avenue Pierre Mendes-France'],
        city: 'PARIS',
        region: null,
        postal_code: '75013',
        country: 'FR',
        redacted_fields: [],
      });
      assert.equal(r.contacts.technical?.fax, '+33.241182829');
      assert.deepEqual(r.status_epp, [
        'serverUpdateProhibited',
        'serverTransferProhibited',
        'serverDeleteProhibited',
        'server recover prohibited',
      ]);
    },
  },
  'rdap/afnic/afnic.fr.json': {
    name: 'afnic.fr',
    expect: (r) => {
      assert.equal(r.transferred_at, '2017-07-18T08:26:59.000Z');
      assert.deepEqual(r.status_epp, ['ok']);
    },
  },
  // CZ.NIC (FRED): the registrar is a handle only; +00:00 offsets.
  'rdap/cznic/example.cz.json': {
    name: 'example.cz',
    expect: (r) => {
      assert.equal(r.registrar?.handle, 'REG-INTERNET-CZ');
      assert.equal(r.registrar?.iana_id, null);
      assert.equal(r.created_at, '2004-08-30T22:55:00.000Z');
      assert.equal(r.transferred_at, '2007-01-25T02:05:00.000Z');
    },
  },
  'rdap/cznic/nic.cz.json': {
    name: 'nic.cz',
    expect: (r) => {
      assert.equal(r.registrar?.handle, 'REG-CZNIC');
      assert.deepEqual(r.dnssec_details, { delegation_signed: true, ds_records: [] });
    },
  },
  // MarkMonitor: `+0000` offsets and "last update" instead of "last changed"; redacted by remark.
  'rdap/markmonitor/abc.xyz.json': {
    name: 'abc.xyz',
    expect: (r) => {
      assert.equal(r.updated_at, '2019-11-07T17:16:24.000Z');
      assert.equal(r.created_at, '2014-03-20T12:59:17.000Z');
      assert.equal(r.expires_at, '2025-03-20T07:00:00.000Z');
    },
  },
  'rdap/markmonitor/google.com.json': {
    name: 'google.com',
    expect: (r) => {
      assert.equal(r.updated_at, '2019-09-09T15:39:04.000Z');
      assert.equal(r.registrant?.organization, 'Google LLC');
      assert.equal(r.registrant?.redacted, true);
      assert.equal(r.contacts.registrant?.region, 'CA');
      assert.equal(r.contacts.registrant?.country, 'US');
      assert.equal(r.contacts.abuse?.email, 'abusecomplaints@markmonitor.com');
      assert.equal(r.privacy_service, false);
    },
  },
  // Namecheap: times without offset (UTC), `Type` parameters, `fax:` URIs, four-part addresses,
  // the IANA ID only in the domain's publicIds, and a privacy service as registrant.
  'rdap/namecheap/bitcoin.org.json': {
    name: 'bitcoin.org',
    expect: (r) => {
      assert.equal(r.created_at, '2008-08-18T13:19:55.000Z');
      assert.equal(r.expires_at, '2029-08-18T13:19:55.000Z');
      assert.equal(r.updated_at, '2019-11-24T13:58:35.000Z');
      assert.equal(r.registrar?.iana_id, '1068');
      assert.equal(r.registrar?.name, 'NAMECHEAP INC');
      assert.equal(r.contacts.registrant?.fax, '+51.17057182');
      assert.equal(r.contacts.registrant?.phone, '+507.8365503');
      assert.equal(r.contacts.registrant?.country, 'PA');
      assert.equal(r.contacts.registrant?.city, 'Panama');
      assert.equal(r.privacy_service, true);
    },
  },
  // Com Laude and ZDNS write names fully qualified.
  'rdap/comlaude/amazon.cyou.json': {
    name: 'amazon.cyou',
    expect: (r) => {
      assert.deepEqual(r.nameservers, ['nsgbr.comlaude.co.uk', 'nssui.comlaude.ch', 'nsusa.comlaude.net']);
      assert.equal(r.registrar?.iana_id, '470');
    },
  },
  'rdap/zdns/bitcoin.top.json': {
    name: 'bitcoin.top',
    expect: (r) => {
      assert.deepEqual(r.nameservers, ['ns1.72dns.com', 'ns2.idc1.cn']);
      assert.equal(r.created_at, '2014-11-17T16:00:29.000Z');
      assert.equal(r.registrar?.iana_id, '1556');
    },
  },
  'rdap/flexireg/home.moscow.json': {
    name: 'home.moscow',
    expect: (r) => assert.equal(r.registrar?.iana_id, '1606'),
  },
  'rdap/nic.tube/you.tube.json': {
    name: 'you.tube',
    expect: (r) => assert.equal(r.expires_at, '2022-04-16T23:59:59.000Z'),
  },
  // RFC 9537: names by `description`, a country as a name, empty `fn`.
  'rdap/redacted/rfc9537-example-1.net.json': {
    name: 'example-1.net',
    expect: (r) => {
      assert.deepEqual(r.contacts.registrant?.redacted_fields, [
        'city',
        'email',
        'name',
        'organization',
        'phone',
        'postal_code',
        'street',
      ]);
      assert.deepEqual(r.contacts.technical?.redacted_fields, ['email', 'fax', 'name', 'phone']);
      assert.equal(r.redactions.length, 14);
      // "Technical Fax" names no method: RFC 9537 §4.2 makes that a removal.
      assert.equal(r.redactions[11]?.method, 'removal');
      assert.equal(r.contacts.registrant?.country, 'CA');
      assert.equal(r.contacts.registrant?.name, null);
      assert.equal(r.registrant?.redacted, true);
      assert.deepEqual(r.redactions[0], {
        name: 'Registry Domain ID',
        path: '$.handle',
        method: 'removal',
        reason: 'Server policy',
      });
    },
  },
};
