import { parseDomainQuery, type WhoisFormat } from '../format.ts';

/**
 * whois.punktum.dk (.dk), Punktum dk (DK Hostmaster). Templates follow
 * registered: likexian/whois-parser testdata/noterror/dk_google.dk (commit 2426ff1e36f7)
 * free: likexian/whois-parser testdata/notfound/dk_likexian-have-no-money-to-register.dk (commit 2426ff1e36f7)
 * reserved: weppos/whois-parser spec/fixtures/responses/whois.dk-hostmaster.dk/dk/property_status_reserved.txt (commit bedb4a48b0c9) (its parking nameservers left out)
 * throttled: weppos/whois-parser spec/fixtures/responses/whois.dk-hostmaster.dk/dk/response_throttled.txt (commit bedb4a48b0c9)
 * The server answers in Latin-1 unless the query asks `--charset=utf-8` (rfc1036/whois servers_charset_list).
 */
const REGISTERED = `# Hello 1.1.1.1. Your session has been logged.
#
# Copyright (c) 2002 - 2022 by DK Hostmaster A/S
#
# Version: 5.0.2
#
# The data in the DK Whois database is provided by DK Hostmaster A/S
# for information purposes only, and to assist persons in obtaining
# information about or related to a domain name registration record.
# We do not guarantee its accuracy. We will reserve the right to remove
# access for entities abusing the data, without notice.
#
# Any use of this material to target advertising or similar activities
# are explicitly forbidden and will be prosecuted. DK Hostmaster A/S
# requests to be notified of any such activities or suspicions thereof.

Domain:               {{domain}}
DNS:                  {{domain}}
Registered:           {{created|YYYY-MM-DD}}
Expires:              {{expires|YYYY-MM-DD}}
Registrar:            {{registrar}}
Registration period:  1 year
VID:                  no
DNSSEC:               Unsigned delegation, DNSSEC disabled, no records
Status:               {{state}}

Nameservers
Hostname:             {{ns}}
`;

const FREE = `# Hello 1.1.1.1. Your session has been logged.
#
# Copyright (c) 2002 - 2022 by DK Hostmaster A/S
#
# Version: 5.0.2
#
# The data in the DK Whois database is provided by DK Hostmaster A/S
# for information purposes only, and to assist persons in obtaining
# information about or related to a domain name registration record.
# We do not guarantee its accuracy. We will reserve the right to remove
# access for entities abusing the data, without notice.
#
# Any use of this material to target advertising or similar activities
# are explicitly forbidden and will be prosecuted. DK Hostmaster A/S
# requests to be notified of any such activities or suspicions thereof.

No entries found for the selected source.
`;

const RESERVED = `# Hello xxx.xxx.xxx.xxx. Your session has been logged.
#
# Copyright (c) 2002 - 2013 by DK Hostmaster A/S
# 
# The data in the DK Whois database is provided by DK Hostmaster A/S
# for information purposes only, and to assist persons in obtaining
# information about or related to a domain name registration record.
# We do not guarantee its accuracy. We will reserve the right to remove
# access for entities abusing the data, without notice.
# 
# Any use of this material to target advertising or similar activities
# are explicitly forbidden and will be prosecuted. DK Hostmaster A/S
# requests to be notified of any such activities or suspicions thereof.

Domain:               {{domain}}
DNS:                  {{domain}}
Registered:           {{now|YYYY-MM-DD}}
Expires:              {{now|YYYY}}-12-31
Registration period:  1 year
VID:                  no
Status:               Reserved

# Use option --show-handles to get handle information.
# Whois HELP for more help.

`;

const THROTTLED = `# Too many connections.

`;

export const punktum: WhoisFormat = {
  name: 'Punktum dk A/S',
  host: 'whois.punktum.dk',
  timeZone: 'Europe/Copenhagen',
  eol: '\n',
  charset: 'latin1',
  parse(line) {
    const words = line.trim().split(/\s+/);
    const name = words.pop() ?? '';
    if (!words.every((word) => /^--(charset=[\w-]+|show-handles)$/i.test(word))) return undefined;
    const query = parseDomainQuery(name);
    return query && words.some((word) => /^--charset=utf-?8$/i.test(word)) ? { ...query, charset: 'utf-8' } : query;
  },
  registered: () => REGISTERED,
  free: () => FREE,
  reserved: () => RESERVED,
  throttled: () => THROTTLED,
  state: (domain) => (domain.inZone ? 'Active' : 'Deactivated'),
};
