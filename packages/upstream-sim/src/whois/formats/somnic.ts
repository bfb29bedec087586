import type { WhoisFormat } from '../format.ts';

/**
 * whois.nic.so (.so), the Somali registry (SONIC). Templates follow
 * registered: weppos/whois-parser spec/fixtures/responses/whois.nic.so/so/status_registered.txt (commit bedb4a48b0c9)
 * free: weppos/whois-parser spec/fixtures/responses/whois.nic.so/so/status_available.txt (commit bedb4a48b0c9)
 * The real server drops clients that query too fast.
 */
const REGISTERED = `Whois Results for "{{domain}}".

Domain Name: {{domain}}
Creation Date: {{created|YYYY-MM-DDTHH:mm:ss}}.0Z
Last Updated On: {{updated|YYYY-MM-DDTHH:mm:ss}}.0Z
Expiration Date: {{expires|YYYY-MM-DDTHH:mm:ss}}.0Z
Sponsoring Registrar: {{registrar}}
Status: {{status}}
Registrant ID: sim-{{handle}}
Admin Contact ID: sim-{{handle}}
Billing Contact ID: sim-{{handle}}
Tech Contact ID: sim-{{handle}}
Name Server: {{ns}}

Access to WHOIS information is provided to assist persons in determining 
the contents of a domain name registration record in the registry database.
The data in this record is provided for informational purposes only without
any accuracy guarantee.
`;

const FREE = `Not found: {{domain}}
`;

export const somnic: WhoisFormat = {
  name: 'Somali Network Information Center',
  host: 'whois.nic.so',
  timeZone: 'UTC',
  eol: '\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
};
