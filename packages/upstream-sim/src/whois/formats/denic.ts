import { parseDomainQuery, type WhoisFormat } from '../format.ts';

/**
 * whois.denic.de (.de), DENIC. Its query syntax: `-T dn,ace <name>` (or `-T dn`) or the bare name. Templates follow
 * registered: likexian/whois-parser testdata/noterror/de_google.de (commit 2426ff1e36f7)
 * free: likexian/whois-parser testdata/notfound/de_likexian-have-no-money-to-register.de (commit 2426ff1e36f7)
 * throttled: weppos/whois-parser spec/fixtures/responses/whois.denic.de/de/response_throttled.txt (commit bedb4a48b0c9)
 * invalid: weppos/whois-parser spec/fixtures/responses/whois.denic.de/de/status_invalid.txt (commit bedb4a48b0c9)
 */
const REGISTERED = `Domain: {{domain}}
Nserver: {{ns}}
Status: {{state}}
Changed: {{updated}}
`;

const FREE = `Domain: {{domain}}
Status: free
`;

const THROTTLED = `% Error: 55000000002 Connection refused; access control limit reached.


`;

const INVALID = `Domain: {{domain}}
Status: invalid

% DB time is {{now}}
`;

export const denic: WhoisFormat = {
  name: 'DENIC eG',
  host: 'whois.denic.de',
  timeZone: 'Europe/Berlin',
  eol: '\n',
  charset: 'utf-8',
  parse(line) {
    const match = /^(?:-T\s+dn(?:,ace)?\s+)?(\S+)$/i.exec(line.trim());
    return match?.[1] === undefined ? undefined : parseDomainQuery(match[1]);
  },
  registered: () => REGISTERED,
  free: () => FREE,
  throttled: () => THROTTLED,
  invalid: () => INVALID,
  state: (domain) =>
    domain.status.includes('redemption period') || domain.status.includes('pending delete')
      ? 'redemptionPeriod'
      : 'connect',
};
