import type { WhoisFormat } from '../format.ts';

/**
 * whois.auda.org.au (.au), auDA's registry (run by Afilias Australia when these were recorded). Templates follow
 * registered: likexian/whois-parser testdata/noterror/au_google.com.au (commit 2426ff1e36f7)
 * free: likexian/whois-parser testdata/notfound/au_likexian-have-no-money-to-register.au (commit 2426ff1e36f7)
 * The real server drops clients that query too fast.
 */
const REGISTERED = `Domain Name: {{DOMAIN}}
Registry Domain ID: D{{handle}}-AU
Registrar WHOIS Server: whois.auda.org.au
Registrar URL:
Last Modified: {{updated|YYYY-MM-DDTHH:mm:ss}}Z
Registrar Name: {{registrar}}
Registrar Abuse Contact Email:
Registrar Abuse Contact Phone:
Reseller Name:
Status: {{status}} https://afilias.com.au/get-au/whois-status-codes#{{status}}
Registrant Contact ID: C{{handle}}-AU
Registrant Contact Name: {{registrant}}
Tech Contact ID: T{{handle}}-AU
Tech Contact Name: {{registrant}}
Name Server: {{NS}}
DNSSEC: unsigned
Registrant: {{registrant}}
Eligibility Type: Trademark Owner
Eligibility Name: {{registrant}}
Eligibility ID: TM {{handle}}

>>> Last update of WHOIS database: {{now|YYYY-MM-DDTHH:mm:ss}}Z <<<



Afilias Australia Pty Ltd (Afilias), for itself and on behalf of .au Domain Administration Limited (auDA), makes the WHOIS registration data directory service (WHOIS Service) available solely for the purposes of:

(a) querying the availability of a domain name licence;

(b) identifying the holder of a domain name licence; and/or

(c) contacting the holder of a domain name licence in relation to that domain name and its use.

The WHOIS Service must not be used for any other purpose (even if that purpose is lawful), including:

(a) aggregating, collecting or compiling information from the WHOIS database, whether for personal or commercial purposes;

(b) enabling the sending of unsolicited electronic communications; and / or

(c) enabling high volume, automated, electronic processes that send queries or data to the systems of Afilias, any registrar, any domain name licence holder, or auDA.

The WHOIS Service is provided for information purposes only. By using the WHOIS Service, you agree to be bound by these terms and conditions. The WHOIS Service is operated in accordance with the auDA WHOIS Policy (available at https://www.auda.org.au/policies/index-of-published-policies/2014/2014-07/ ).

`;

const FREE = `NOT FOUND
>>> Last update of WHOIS database: {{now|YYYY-MM-DDTHH:mm:ss}}Z <<<

Afilias Australia Pty Ltd (Afilias), for itself and on behalf of .au Domain Administration Limited (auDA), makes the WHOIS registration data directory service (WHOIS Service) available solely for the purposes of:

(a) querying the availability of a domain name licence;

(b) identifying the holder of a domain name licence; and/or

(c) contacting the holder of a domain name licence in relation to that domain name and its use.

The WHOIS Service must not be used for any other purpose (even if that purpose is lawful), including:

(a) aggregating, collecting or compiling information from the WHOIS database, whether for personal or commercial purposes;

(b) enabling the sending of unsolicited electronic communications; and / or

(c) enabling high volume, automated, electronic processes that send queries or data to the systems of Afilias, any registrar, any domain name licence holder, or auDA.

The WHOIS Service is provided for information purposes only. By using the WHOIS Service, you agree to be bound by these terms and conditions. The WHOIS Service is operated in accordance with the auDA WHOIS Policy (available at https://www.auda.org.au/policies/index-of-published-policies/2014/2014-07/ ).
`;

export const auda: WhoisFormat = {
  name: '.au Domain Administration Ltd',
  host: 'whois.auda.org.au',
  timeZone: 'UTC',
  eol: '\r\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
};
