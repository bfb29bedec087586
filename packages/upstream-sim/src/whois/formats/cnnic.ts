import type { WhoisFormat } from '../format.ts';

/**
 * whois.cnnic.cn (.cn), CNNIC. Templates follow
 * registered: likexian/whois-parser testdata/noterror/cn_google.cn (commit 2426ff1e36f7)
 * free: likexian/whois-parser testdata/notfound/cn_likexian-have-no-money-to-register.cn (commit 2426ff1e36f7)
 * reserved: weppos/whois-parser spec/fixtures/responses/whois.cnnic.cn/cn/status_reserved.txt (commit bedb4a48b0c9)
 * The real server drops clients that query too fast.
 */
const REGISTERED = `Domain Name: {{domain}}
ROID: {{created|YYYYMMDD}}s10001s{{handle}}-cn
Domain Status: {{status}}
Registrant ID: sim_{{handle}}
Registrant: {{registrant}}
Registrant Contact Email: hostmaster@{{domain}}
Sponsoring Registrar: {{registrar}}
Name Server: {{ns}}
Registration Time: {{created|YYYY-MM-DD HH:mm:ss}}
Expiration Time: {{expires|YYYY-MM-DD HH:mm:ss}}
DNSSEC: unsigned

`;

const FREE = `No matching record.
`;

const RESERVED = `The domain you requested is prohibited.
`;

export const cnnic: WhoisFormat = {
  name: 'China Internet Network Information Center',
  host: 'whois.cnnic.cn',
  timeZone: 'Asia/Shanghai',
  eol: '\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
  reserved: () => RESERVED,
};
