import type { WhoisFormat } from '../format.ts';

/**
 * whois.nic.us (.us), run by GoDaddy Registry (Registry Services, LLC). Templates follow
 * registered: likexian/whois-parser testdata/noterror/us_google.us (commit 2426ff1e36f7), its fields, then the notice
 * of free: likexian/whois-parser testdata/notfound/us_likexian-have-no-money-to-register.us (commit 2426ff1e36f7) (the notice of 2022; the registered answer is of 2019).
 * Contacts are the simulated holder's. The real server drops clients that query too fast.
 */
const REGISTERED = `Domain Name: {{domain}}
Registry Domain ID: D{{handle}}-US
Registrar WHOIS Server:
Registrar URL: {{registrarHost}}
Updated Date: {{updated|YYYY-MM-DDTHH:mm:ss}}Z
Creation Date: {{created|YYYY-MM-DDTHH:mm:ss}}Z
Registry Expiry Date: {{expires|YYYY-MM-DDTHH:mm:ss}}Z
Registrar: {{registrar}}
Registrar IANA ID: {{ianaId}}
Registrar Abuse Contact Email: {{abuseEmail}}
Registrar Abuse Contact Phone: +1.2175550199
Domain Status: {{status}} https://icann.org/epp#{{status}}
Registry Registrant ID: C{{handle}}-US
Registrant Name: {{registrant}}
Registrant Organization: {{registrant}}
Registrant Street: 1 Main Street
Registrant Street:
Registrant Street:
Registrant City: Springfield
Registrant State/Province: IL
Registrant Postal Code: 62701
Registrant Country: US
Registrant Phone: +1.2175550100
Registrant Phone Ext:
Registrant Fax: +1.2175550101
Registrant Fax Ext:
Registrant Email: hostmaster@{{domain}}
Registrant Application Purpose: P1
Registrant Nexus Category: C21
Registry Admin ID: C{{handle}}-US
Admin Name: {{registrant}}
Admin Organization: {{registrant}}
Admin Street: 1 Main Street
Admin Street:
Admin Street:
Admin City: Springfield
Admin State/Province: IL
Admin Postal Code: 62701
Admin Country: US
Admin Phone: +1.2175550100
Admin Phone Ext:
Admin Fax: +1.2175550101
Admin Fax Ext:
Admin Email: hostmaster@{{domain}}
Admin Application Purpose: P1
Admin Nexus Category: C21
Registry Tech ID: C{{handle}}-US
Tech Name: {{registrant}}
Tech Organization: {{registrant}}
Tech Street: 1 Main Street
Tech Street:
Tech Street:
Tech City: Springfield
Tech State/Province: IL
Tech Postal Code: 62701
Tech Country: US
Tech Phone: +1.2175550100
Tech Phone Ext:
Tech Fax: +1.2175550101
Tech Fax Ext:
Tech Email: hostmaster@{{domain}}
Tech Application Purpose: P1
Tech Nexus Category: C21
Name Server: {{ns}}
DNSSEC: unsigned
URL of the ICANN Whois Inaccuracy Complaint Form: https://www.icann.org/wicf/
>>> Last update of WHOIS database: {{now|YYYY-MM-DDTHH:mm:ss}}Z <<<

For more information on Whois status codes, please visit https://icann.org/epp

.US WHOIS Complaint Tool - http://www.whoiscomplaints.us
Advanced WHOIS Instructions - http://whois.us/help.html

Registry Services, LLC, the Registry Administrator for .US, has collected this information for the WHOIS database through a .US-Accredited Registrar. This information is provided to you for informational purposes only and is designed to assist persons in determining contents of a domain name registration record in the registry database. 

Registry Services, LLC makes this information available to you "as is" and does not guarantee its accuracy. By submitting a WHOIS query, you agree that you will use this data only for lawful purposes and that, under no circumstances will you use this data: 

(1) to allow, enable, or otherwise support the transmission of mass unsolicited, commercial advertising or solicitations via direct mail, electronic mail, or by telephone; 
(2) in contravention of any applicable data and privacy protection laws; or 
(3) to enable high volume, automated, electronic processes that apply to the registry (or its systems). 

Compilation, repackaging, dissemination, or other use of the WHOIS database in its entirety, or of a substantial portion thereof, is not allowed without our prior written permission. 

We reserve the right to modify or change these conditions at any time without prior or subsequent notification of any kind. By executing this query, in any manner whatsoever, you agree to abide by these terms. NOTE: FAILURE TO LOCATE A RECORD IN THE WHOIS DATABASE IS NOT INDICATIVE OF THE AVAILABILITY OF A DOMAIN NAME. All domain names are subject to certain additional domain name registration rules. For details, please visit our site at www.whois.us.
`;

const FREE = `No Data Found
URL of the ICANN Whois Inaccuracy Complaint Form: https://www.icann.org/wicf/
>>> Last update of WHOIS database: {{now|YYYY-MM-DDTHH:mm:ss}}Z <<<

For more information on Whois status codes, please visit https://icann.org/epp

.US WHOIS Complaint Tool - http://www.whoiscomplaints.us
Advanced WHOIS Instructions - http://whois.us/help.html

Registry Services, LLC, the Registry Administrator for .US, has collected this information for the WHOIS database through a .US-Accredited Registrar. This information is provided to you for informational purposes only and is designed to assist persons in determining contents of a domain name registration record in the registry database. 

Registry Services, LLC makes this information available to you "as is" and does not guarantee its accuracy. By submitting a WHOIS query, you agree that you will use this data only for lawful purposes and that, under no circumstances will you use this data: 

(1) to allow, enable, or otherwise support the transmission of mass unsolicited, commercial advertising or solicitations via direct mail, electronic mail, or by telephone; 
(2) in contravention of any applicable data and privacy protection laws; or 
(3) to enable high volume, automated, electronic processes that apply to the registry (or its systems). 

Compilation, repackaging, dissemination, or other use of the WHOIS database in its entirety, or of a substantial portion thereof, is not allowed without our prior written permission. 

We reserve the right to modify or change these conditions at any time without prior or subsequent notification of any kind. By executing this query, in any manner whatsoever, you agree to abide by these terms. NOTE: FAILURE TO LOCATE A RECORD IN THE WHOIS DATABASE IS NOT INDICATIVE OF THE AVAILABILITY OF A DOMAIN NAME. All domain names are subject to certain additional domain name registration rules. For details, please visit our site at www.whois.us.
`;

export const godaddyUs: WhoisFormat = {
  name: 'Registry Services, LLC',
  host: 'whois.nic.us',
  timeZone: 'UTC',
  eol: '\r\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
};
