import type { WhoisFormat } from '../format.ts';

/**
 * whois.dns.be (.be), DNS Belgium. Templates follow
 * registered: weppos/whois-parser spec/fixtures/responses/whois.dns.be/be/status_registered.txt (commit bedb4a48b0c9)
 * free: weppos/whois-parser spec/fixtures/responses/whois.dns.be/be/status_available.txt (commit bedb4a48b0c9)
 * throttled: weppos/whois-parser spec/fixtures/responses/whois.dns.be/be/response_throttled_limit.txt (commit bedb4a48b0c9) (an older server version's notice, as recorded)
 */
const REGISTERED = `% .be Whois Server 6.1
%
% The WHOIS service offered by DNS.be and the access to the records in the DNS.be
% WHOIS database are provided for information purposes only. It allows
% persons to check whether a specific domain name is still available or not
% and to obtain information related to the registration records of
% existing domain names.
%
% DNS.be cannot, under any circumstances, be held liable where the stored
% information would prove to be incomplete or inaccurate in any sense.
%
% By submitting a query you agree not to use the information made available
% to:
%   - allow, enable or otherwise support the transmission of unsolicited,
%     commercial advertising or other solicitations whether via email or otherwise;
%   - target advertising in any possible way;
%   - to cause nuisance in any possible way to the domain name holders by sending 
%     messages to them (whether by automated, electronic processes capable of
%     enabling high volumes or other possible means).
% 
% Without prejudice to the above, it is explicitly forbidden to extract, copy
% and/or use or re-utilise in any form and by any means (electronically or
% not) the whole or a quantitatively or qualitatively substantial part
% of the contents of the WHOIS database without prior and explicit permission
% by DNS.be, nor in any attempt thereof, to apply automated, electronic
% processes to DNS.be (or its systems).
%
% You agree that any reproduction and/or transmission of data for commercial
% purposes will always be considered as the extraction of a substantial
% part of the content of the WHOIS database.
%
% By submitting the query you agree to abide by this policy and accept that
% DNS.be can take measures to limit the use of its whois services in order to
% protect the privacy of its registrants or the integrity of the database.
%

Domain:	{{domain}}
Status:	{{state}}
Registered:	{{created|ddd MMM DD YYYY}}

Registrant:
	Not shown, please visit www.dns.be for webbased whois.

Registrar Technical Contacts:
	Name:	{{registrar}}
	Organisation:	{{registrar}}
	Language:	en
	Phone:	+1.2083895740
	Fax:	+1.2083895771
	Email:	{{abuseEmail}}


Registrar:
	Name:	 {{registrar}}
	Website: {{registrarUrl}}

Nameservers:
	{{ns}}

Keys:

Flags:

Please visit www.dns.be for more info.
`;

const FREE = `% .be Whois Server 6.1
%
% The WHOIS service offered by DNS.be and the access to the records in the DNS.be
% WHOIS database are provided for information purposes only. It allows
% persons to check whether a specific domain name is still available or not
% and to obtain information related to the registration records of
% existing domain names.
%
% DNS.be cannot, under any circumstances, be held liable where the stored
% information would prove to be incomplete or inaccurate in any sense.
%
% By submitting a query you agree not to use the information made available
% to:
%   - allow, enable or otherwise support the transmission of unsolicited,
%     commercial advertising or other solicitations whether via email or otherwise;
%   - target advertising in any possible way;
%   - to cause nuisance in any possible way to the domain name holders by sending 
%     messages to them (whether by automated, electronic processes capable of
%     enabling high volumes or other possible means).
% 
% Without prejudice to the above, it is explicitly forbidden to extract, copy
% and/or use or re-utilise in any form and by any means (electronically or
% not) the whole or a quantitatively or qualitatively substantial part
% of the contents of the WHOIS database without prior and explicit permission
% by DNS.be, nor in any attempt thereof, to apply automated, electronic
% processes to DNS.be (or its systems).
%
% You agree that any reproduction and/or transmission of data for commercial
% purposes will always be considered as the extraction of a substantial
% part of the content of the WHOIS database.
%
% By submitting the query you agree to abide by this policy and accept that
% DNS.be can take measures to limit the use of its whois services in order to
% protect the privacy of its registrants or the integrity of the database.
%

Domain:	{{domain}}
Status:	AVAILABLE

`;

const THROTTLED = `% .be Whois Server 4.0
%
% (c) dns.be 2001-2004 (http://www.dns.be)
%
%- The WHOIS service offered by DNS and the access to the records in the DNS
%- WHOIS database are provided for information purposes only. It allows
%- persons to check whether a specific domain name is still available or not
%- and to obtain information related to the registration records of
%- existing domain names.
%-
%- DNS cannot, under any circumstances, be held liable where the stored
%- information would prove to be incomplete or inaccurate in any sense.
%-
%- By submitting a query you agree not to use the information made available
%- to:
%-   - allow, enable or otherwise support the transmission of unsolicited,
%-     commercial advertising or other solicitations whether via email or otherwise;
%-   - target advertising in any possible way;
%-   - to cause nuisance in any possible way to the domain name holders by sending 
%-     messages to them (whether by automated, electronic processes capable of
%-     enabling high volumes or other possible means).
%- 
%- Without prejudice to the above, it is explicitly forbidden to extract, copy
%- and/or use or re-utilise in any form and by any means (electronically or
%- not) the whole or a quantitatively or qualitatively substantial part
%- of the contents of the WHOIS database without prior and explicit permission
%- by DNS, nor in any attempt thereof, to apply automated, electronic
%- processes to DNS (or its systems).
%-
%- You agree that any reproduction and/or transmission of data for commercial
%- purposes will always be considered as the extraction of a substantial
%- part of the content of the WHOIS database.
%-
%- By submitting the query you agree to abide by this policy and accept that
%- DNS can take measures to limit the use of its whois services in order to
%- protect the privacy of its registrants or the integrity of the database.
%-
% WHOIS {{domain}}
% Excessive querying, grace period of 2 seconds

`;

export const dnsBelgium: WhoisFormat = {
  name: 'DNS Belgium vzw',
  host: 'whois.dns.be',
  timeZone: 'Europe/Brussels',
  eol: '\r\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
  throttled: () => THROTTLED,
  state: (domain) => (domain.inZone ? 'NOT AVAILABLE' : 'QUARANTINE'),
};
