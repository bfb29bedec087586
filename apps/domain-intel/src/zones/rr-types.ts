/**
 * Mnemonics of the DNS resource record types in the IANA registry (plus the obsolete ones still
 * seen in the wild). Any other type must be written in the RFC 3597 generic form `TYPEnnn`.
 * Knowing them lets the reader tell a record from a line of junk.
 */
export const RR_TYPES: ReadonlySet<string> = new Set(
  [
    'A NS MD MF CNAME SOA MB MG MR NULL WKS PTR HINFO MINFO MX TXT RP AFSDB X25 ISDN RT NSAP NSAP-PTR SIG',
    'KEY PX GPOS AAAA LOC NXT EID NIMLOC SRV ATMA NAPTR KX CERT A6 DNAME SINK OPT APL DS SSHFP IPSECKEY',
    'RRSIG NSEC DNSKEY DHCID NSEC3 NSEC3PARAM TLSA SMIMEA HIP NINFO RKEY TALINK CDS CDNSKEY OPENPGPKEY',
    'CSYNC ZONEMD SVCB HTTPS DSYNC HHIT BRID SPF UINFO UID GID UNSPEC NID L32 L64 LP EUI48 EUI64 NXNAME',
    'TKEY TSIG IXFR AXFR MAILB MAILA URI CAA AVC DOA AMTRELAY RESINFO WALLET CLA IPN TA DLV',
  ]
    .join(' ')
    .split(' '),
);

const GENERIC_TYPE = /^TYPE\d{1,5}$/;

export function isRecordType(upperCaseToken: string): boolean {
  return RR_TYPES.has(upperCaseToken) || GENERIC_TYPE.test(upperCaseToken);
}
