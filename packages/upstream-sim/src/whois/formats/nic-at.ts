import type { WhoisFormat } from '../format.ts';

/**
 * whois.nic.at (.at), nic.at. Templates follow
 * registered: likexian/whois-parser testdata/noterror/at_samsung.at (commit 2426ff1e36f7)
 * free: weppos/whois-parser spec/fixtures/responses/whois.nic.at/at/status_available.txt (commit bedb4a48b0c9)
 * The real server drops clients that query too fast.
 */
const REGISTERED = `% Copyright (c)2024 by NIC.AT (1)                                       
%
% Restricted rights.
%
% Except  for  agreed Internet  operational  purposes, no  part  of this
% information  may  be reproduced,  stored  in  a  retrieval  system, or
% transmitted, in  any  form  or by  any means,  electronic, mechanical,
% recording, or otherwise, without prior  permission of NIC.AT on behalf
% of itself and/or the copyright  holders.  Any use of this  material to
% target advertising  or similar activities is explicitly  forbidden and
% can be prosecuted.
%
% It is furthermore strictly forbidden to use the Whois-Database in such
% a  way  that  jeopardizes or  could jeopardize  the  stability  of the
% technical  systems of  NIC.AT  under any circumstances. In particular,
% this includes  any misuse  of the  Whois-Database and  any  use of the
% Whois-Database which disturbs its operation.
%
% Should the  user violate  these points,  NIC.AT reserves  the right to
% deactivate  the  Whois-Database   entirely  or  partly  for  the user.
% Moreover,  the  user  shall be  held liable  for  any  and all  damage
% arising from a violation of these points.

domain:         {{domain}}
registrar:      {{registrar}} ( https://nic.at/registrar/{{ianaId}} )
registrant:     S{{handle}}-NICAT
tech-c:         T{{handle}}-NICAT
nserver:        {{ns}}
changed:        {{updated|YYYYMMDD HH:mm:ss}}
source:         AT-DOM

personname:     {{registrant}}
organization:   {{registrant}}
street address: Praterstrasse 31
postal code:    1020
city:           Wien
country:        Austria
phone:          <data not disclosed>
fax-no:         +43151615119
e-mail:         <data not disclosed>
nic-hdl:        S{{handle}}-NICAT
changed:        {{created|YYYYMMDD HH:mm:ss}}
source:         AT-DOM

personname:     {{registrar}}
organization:   {{registrar}}
street address: Feldkirchner Strasse 140
postal code:    9020
city:           Klagenfurt am Woerthersee
country:        Austria
phone:          +4350556
e-mail:         {{abuseEmail}}
nic-hdl:        T{{handle}}-NICAT
changed:        {{created|YYYYMMDD HH:mm:ss}}
source:         AT-DOM
`;

const FREE = `% Copyright (c)2014 by NIC.AT (1)                                       
%
% Restricted rights.
%
% Except  for  agreed Internet  operational  purposes, no  part  of this
% information  may  be reproduced,  stored  in  a  retrieval  system, or
% transmitted, in  any  form  or by  any means,  electronic, mechanical,
% recording, or otherwise, without prior  permission of NIC.AT on behalf
% of itself and/or the copyright  holders.  Any use of this  material to
% target advertising  or similar activities is explicitly  forbidden and
% can be prosecuted.
%
% It is furthermore strictly forbidden to use the Whois-Database in such
% a  way  that  jeopardizes or  could jeopardize  the  stability  of the
% technical  systems of  NIC.AT  under any circumstances. In particular,
% this includes  any misuse  of the  Whois-Database and  any  use of the
% Whois-Database which disturbs its operation.
%
% Should the  user violate  these points,  NIC.AT reserves  the right to
% deactivate  the  Whois-Database   entirely  or  partly  for  the user.
% Moreover,  the  user  shall be  held liable  for  any  and all  damage
% arising from a violation of these points.

% nothing found

`;

export const nicAt: WhoisFormat = {
  name: 'nic.at GmbH',
  host: 'whois.nic.at',
  timeZone: 'Europe/Vienna',
  eol: '\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
};
