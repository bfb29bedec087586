import type { WhoisFormat } from '../format.ts';

/**
 * whois.gg (.gg), Island Networks (Channel Isles). Templates follow
 * registered: weppos/whois-parser spec/fixtures/responses/whois.gg/gg/status_registered.txt (commit bedb4a48b0c9)
 * free: weppos/whois-parser spec/fixtures/responses/whois.gg/gg/status_available.txt (commit bedb4a48b0c9)
 * The real server drops clients that query too fast.
 */
const REGISTERED = `Domain Name: {{domain}}
Domain ID: {{handle}}-CI
WHOIS Server: whois.gg
Referral URL: 
Creation Date: {{created|YYYY-MM-DDTHH:mm:ss.SSS}}Z
Sponsoring Registrar: {{registrar}}
Sponsoring Registrar IANA ID: 
Domain Status: {{status}}

Registrant ID: {{handle}}-CI

Admin ID: {{handle}}-CI

Billing ID: {{handle}}-CI

Tech ID: {{handle}}-CI

Name Server: {{ns}}

DNSSEC: unsigned


Additional Section


Sponsoring Registrar URL: {{registrarUrl}}


This information is provided free of charge from the Channel Islands' 
Register of Internet Names. The copyright  and database rights in this
information and in the contents are owned by Island Networks Ltd
whose Registered Office is at 12 Victoria St, St Anne's GY9 3UF

WHOIS query results shown may lag behind the Register.

You may not access this server or use any data obtained from it 
without written licence except for private, non-commercial use for the 
purpose(s) of determining availability of, or confirming the registration of 
a domain name on the Register. 

Any other use constitutes unauthorised access to a computer, 
which is a statutory offence under the Computer Misuse 
(Bailiwick of Guernsey) Law 1991, and/or similar legislation 
in other parts of the British Islands and elsewhere.

Furthermore, you may never do any of the following

(a) use data obtained from this server for advertising; 
(b) repackage, reuse or redistribute the data;
(c) obscure, remove or hide any or all of this notice; or 
(d) make excessive queries. 

Access may be withdrawn or restricted at any time 
without notice. 



>>> Last update of WHOIS database: {{now|YYYY-MM-DDTHH:mm:ss.SSS}}Z <<<
`;

const FREE = `Domain Name: {{domain}}
Domain Status: Available

This information is provided free of charge from the Channel Islands' 
Register of Internet Names. The copyright  and database rights in this
information and in the contents are owned by Island Networks Ltd
whose Registered Office is at 12 Victoria St, St Anne's GY9 3UF

WHOIS query results shown may lag behind the Register.

You may not access this server or use any data obtained from it 
without written licence except for private, non-commercial use for the 
purpose(s) of determining availability of, or confirming the registration of 
a domain name on the Register. 

Any other use constitutes unauthorised access to a computer, 
which is a statutory offence under the Computer Misuse 
(Bailiwick of Guernsey) Law 1991, and/or similar legislation 
in other parts of the British Islands and elsewhere.

Furthermore, you may never do any of the following

(a) use data obtained from this server for advertising; 
(b) repackage, reuse or redistribute the data;
(c) obscure, remove or hide any or all of this notice; or 
(d) make excessive queries. 

Access may be withdrawn or restricted at any time 
without notice. 



>>> Last update of WHOIS database: {{now|YYYY-MM-DDTHH:mm:ss.SSS}}Z <<<
`;

export const islandNetworks: WhoisFormat = {
  name: 'Island Networks Ltd',
  host: 'whois.gg',
  timeZone: 'UTC',
  eol: '\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
};
