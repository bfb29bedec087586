import type { WhoisFormat } from '../format.ts';

/**
 * whois.nic.it (.it), Registro .it (IIT-CNR). Templates follow
 * registered: likexian/whois-parser testdata/noterror/it_google.it (commit 2426ff1e36f7)
 * free: likexian/whois-parser testdata/notfound/it_likexian-have-no-money-to-register.it (commit 2426ff1e36f7)
 * reserved: weppos/whois-parser spec/fixtures/responses/whois.nic.it/it/property_status_reserved.txt (commit bedb4a48b0c9)
 * The real server drops clients that query too fast.
 */
const REGISTERED = `
*********************************************************************
* Please note that the following result could be a subgroup of      *
* the data contained in the database.                               *
*                                                                   *
* Additional information can be visualized at:                      *
* http://web-whois.nic.it                                           *
* Privacy Information: http://web-whois.nic.it/privacy              *
*********************************************************************

Domain:             {{domain}}
Status:             {{state}}
Signed:             no
Created:            {{created|YYYY-MM-DD HH:mm:ss}}
Last Update:        {{updated|YYYY-MM-DD HH:mm:ss}}
Expire Date:        {{expires|YYYY-MM-DD}}

Registrant
  Organization:     {{registrant}}
  Address:          1 Main Street
                    Springfield
                    62701
                    IL
                    US
  Created:          {{created|YYYY-MM-DD HH:mm:ss}}
  Last Update:      {{updated|YYYY-MM-DD HH:mm:ss}}

Admin Contact
  Name:             {{registrant}}
  Organization:     {{registrant}}
  Address:          1 Main Street
                    Springfield
                    62701
                    IL
                    US
  Created:          {{created|YYYY-MM-DD HH:mm:ss}}
  Last Update:      {{updated|YYYY-MM-DD HH:mm:ss}}

Technical Contacts
  Name:             {{registrant}}
  Organization:     {{registrant}}
  Address:          1 Main Street
                    Springfield
                    62701
                    IL
                    US
  Created:          {{created|YYYY-MM-DD HH:mm:ss}}
  Last Update:      {{updated|YYYY-MM-DD HH:mm:ss}}

Registrar
  Organization:     {{registrar}}
  Name:             REG-{{ianaId}}
  Web:              {{registrarUrl}}
  DNSSEC:           no


Nameservers
  {{ns}}



`;

const FREE = `Domain:             {{domain}}
Status:             AVAILABLE
`;

const RESERVED = `Domain:             {{domain}}
Status:             RESERVED
`;

export const nicIt: WhoisFormat = {
  name: 'Registro .it (IIT-CNR)',
  host: 'whois.nic.it',
  timeZone: 'Europe/Rome',
  eol: '\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
  reserved: () => RESERVED,
  state: (domain) =>
    domain.status.includes('redemption period')
      ? 'pendingDelete / redemptionPeriod'
      : domain.status.includes('pending delete')
        ? 'pendingDelete / pendingDelete'
        : 'ok',
};
