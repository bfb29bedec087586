import type { WhoisFormat } from '../format.ts';

/**
 * whois.irs.net.nz (.nz), InternetNZ. Templates follow
 * registered: likexian/whois-parser testdata/noterror/nz_vote.nz (commit 2426ff1e36f7) (domain_dateregistered and
 * domain_datebilleduntil put back where whois.srs.net.nz/nz/status_registered.txt of weppos/whois-parser has them)
 * free: likexian/whois-parser testdata/notfound/nz_likexian-have-no-money-to-register.nz (commit 2426ff1e36f7)
 * throttled: weppos/whois-parser spec/fixtures/responses/whois.srs.net.nz/nz/response_throttled.txt (commit bedb4a48b0c9)
 */
const REGISTERED = `% Terms of Use
%
% By submitting a WHOIS query you are entering into an agreement with Domain
% Name Commission Ltd on the following terms and conditions, and subject to
% all relevant .nz Policies and procedures as found at https://dnc.org.nz/.
%
% It is prohibited to:
% - Send high volume WHOIS queries with the effect of downloading part of or
%   all of the .nz Register or collecting register data or records;
% - Access the .nz Register in bulk through the WHOIS service (ie. where a
%   user is able to access WHOIS data other than by sending individual queries
%   to the database);
% - Use WHOIS data to allow, enable, or otherwise support mass unsolicited
%   commercial advertising, or mass solicitations to registrants or to
%   undertake market research via direct mail, electronic mail, SMS, telephone
%   or any other medium;
% - Use WHOIS data in contravention of any applicable data and privacy laws,
%   including the Unsolicited Electronic Messages Act 2007;
% - Store or compile WHOIS data to build up a secondary register of
%   information;
% - Publish historical or non-current versions of WHOIS data; and
% - Publish any WHOIS data in bulk.
%
% Copyright Domain Name Commission Limited (a company wholly-owned by Internet
% New Zealand Incorporated) which may enforce its rights against any person or
% entity that undertakes any prohibited activity without its written
% permission.
%
% The WHOIS service is provided by NZRS Limited.
%
version: 8.0
query_datetime: {{now}}
domain_name: {{domain}}
query_status: {{state}}
domain_dateregistered: {{created}}
domain_datebilleduntil: {{expires}}
domain_datelastmodified: {{updated}}
domain_delegaterequested: yes
domain_signed: no
%
registrar_name: {{registrar}}
registrar_address1: PO Box 11-053
registrar_city: Wellington
registrar_country: NZ (NEW ZEALAND)
registrar_phone: +64 4 499 2267
registrar_email: {{abuseEmail}}
%
ns_name_{{nn}}: {{ns}}
%
% Additional information may be available at https://www.dnc.org.nz/whois/search?domain_name={{domain}}
%

`;

const FREE = `% Terms of Use
%
% By submitting a WHOIS query you are entering into an agreement with Domain
% Name Commission Ltd on the following terms and conditions, and subject to
% all relevant .nz Policies and procedures as found at https://dnc.org.nz/.
%
% It is prohibited to:
% - Send high volume WHOIS queries with the effect of downloading part of or
%   all of the .nz Register or collecting register data or records;
% - Access the .nz Register in bulk through the WHOIS service (ie. where a
%   user is able to access WHOIS data other than by sending individual queries
%   to the database);
% - Use WHOIS data to allow, enable, or otherwise support mass unsolicited
%   commercial advertising, or mass solicitations to registrants or to
%   undertake market research via direct mail, electronic mail, SMS, telephone
%   or any other medium;
% - Use WHOIS data in contravention of any applicable data and privacy laws,
%   including the Unsolicited Electronic Messages Act 2007;
% - Store or compile WHOIS data to build up a secondary register of
%   information;
% - Publish historical or non-current versions of WHOIS data; and
% - Publish any WHOIS data in bulk.
%
% Copyright Domain Name Commission Limited (a company wholly-owned by Internet
% New Zealand Incorporated) which may enforce its rights against any person or
% entity that undertakes any prohibited activity without its written
% permission.
%
% The WHOIS service is provided by NZRS Limited.
%
version: 8.7
query_datetime: {{now}}
domain_name: {{domain}}
query_status: 220 Available
%
% Additional information may be available at https://www.dnc.org.nz/whois/search?domain_name={{domain}}
%
`;

const THROTTLED = `% New Zealand Domain Name Registry Limited
% Users confirm on submission their agreement to all published Terms
%
version: 5.00
query_datetime: {{now}}
domain_name: {{domain}}
query_status: 440 Request Denied
%
%
%
%
%
% Users are advised that the following activities are strictly forbidden.
%
% Using multiple WHOIS queries, or using the output of multiple WHOIS
% queries in conjunction with any other facility or service, to enable
% or effect a download of part or all of the .nz Register.
%
% Using any information contained in the WHOIS query output to attempt a
% targeted contact campaign with any person, or any organisation, using any
% medium.
%
% A breach of these conditions will be treated as a breach of the .nz Policies
% and Procedures.  Sanctions in line with those specified in the policies and
% procedures at www.dnc.org.nz may result from any breach.
%
% Copyright InternetNZ
`;

export const internetnz: WhoisFormat = {
  name: 'InternetNZ',
  host: 'whois.irs.net.nz',
  timeZone: 'Pacific/Auckland',
  eol: '\r\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
  throttled: () => THROTTLED,
  state: (domain) => (domain.inZone ? '200 Active' : '210 PendingRelease'),
};
