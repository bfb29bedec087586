import type { WhoisFormat } from '../format.ts';

/**
 * whois.nic.es (.es), Red.es. Templates follow
 * registered: weppos/whois-parser spec/fixtures/responses/whois.nic.es/es/status_registered.txt (commit bedb4a48b0c9)
 * free: weppos/whois-parser spec/fixtures/responses/whois.nic.es/es/status_available.txt (commit bedb4a48b0c9)
 * The real server answers only addresses Red.es has authorised, 15 queries a minute each, and drops the rest.
 */
const REGISTERED = `    Conditions of use for the whois service via port 43 for .es domains

    Access will only be enabled for  IP addresses  authorised  by Red.es.  A maximum of one  IP address per
    user/organisation is permitted.

    Red.es accepts  no responsibility  whatsoever  for  the availability  of access to WHOIS,  which may be
    suspended at any time and without prior warning at the discretion of the public entity.

    The service will be limited to the data established by Red.es.

    The user  promises  to make use of the service and to  carry out any action derived  from the aforesaid
    use in accordance with  current applicable  regulations, in particular with legislation on “.es” domain
    names and personal data protection.

    In particular, the user undertakes not to use  the service  to carry out abusive  or speculative domain
    name registrations, pursuant to section 5 of the Sixth Additional Provision of Law 34/2002, of 11 July,
    on Services of the  Information  Society and  Electronic Commerce. Likewise, the User undertakes not to
    use the service to  obtain data, the possession  of which may  contravene the provisions of Organic Law
    15/1999,  of  13 December,  on Personal Data Protection, and  its Regulations, or in Law 34/2002, of 11
    July, on Services of the Information Society and Electronic Commerce.

    Failure  to comply with these conditions will result in the immediate withdrawal of the service and any
    registered domain name which breaches said conditions may be officially cancelled by Red.es.

    The  User will be held accountable for the use they make of the service and will be responsible for any
    claims that may be filed by third parties in this regard against Red.es and will have to compensate the
    public entity for any damages it may incur as a result.

    The data which can be consulted via this service include: availability, name of the holder of a domain,
    administrative and  technical contact identifiers,  domain creation date,  domain expiration date,  DNS
    name server and IP DNS server (a maximum of 4 DNS).

    A maximum of 15 queries per minute can be made by each registered IP address.

    Queries can be performed on second and third level domains.
    -------------------------------------------------------------------------------------------------------
 
    Domain:
    -------
       Domain Name:                  {{domain}}
       Creation Date:                {{created|DD/MM/YY}}
       Expiration Date:              {{expires|DD/MM/YY}}

    Registrant:
    -----------
       Registrant Name:              {{registrant}}

    Domain Servers:
    ---------------
       Name Server 1:                {{ns.1}}
       IPv4 Server 1:                
       IPv6 Server 1:                
       Name Server 2:                {{ns.2}}
       IPv4 Server 2:                
       IPv6 Server 2:                
       Name Server 3:                {{ns.3}}
       IPv4 Server 3:                
       IPv6 Server 3:                
       Name Server 4:                {{ns.4}}
       IPv4 Server 4:                
       IPv6 Server 4:                


    >>> LAST UPDATE: {{now|DD/MM/YYYY HH:mm:ss}}
    -------------------------------------------------------------------------------------------------------
    More information on each domain may be consulted at www.dominios.es.
`;

const FREE = `    Conditions of use for the whois service via port 43 for .es domains

    Access will only be enabled for  IP addresses  authorised  by Red.es.  A maximum of one  IP address per
    user/organisation is permitted.

    Red.es accepts  no responsibility  whatsoever  for  the availability  of access to WHOIS,  which may be
    suspended at any time and without prior warning at the discretion of the public entity.

    The service will be limited to the data established by Red.es.

    The user  promises  to make use of the service and to  carry out any action derived  from the aforesaid
    use in accordance with  current applicable  regulations, in particular with legislation on “.es” domain
    names and personal data protection.

    In particular, the user undertakes not to use  the service  to carry out abusive  or speculative domain
    name registrations, pursuant to section 5 of the Sixth Additional Provision of Law 34/2002, of 11 July,
    on Services of the  Information  Society and  Electronic Commerce. Likewise, the User undertakes not to
    use the service to  obtain data, the possession  of which may  contravene the provisions of Organic Law
    15/1999,  of  13 December,  on Personal Data Protection, and  its Regulations, or in Law 34/2002, of 11
    July, on Services of the Information Society and Electronic Commerce.

    Failure  to comply with these conditions will result in the immediate withdrawal of the service and any
    registered domain name which breaches said conditions may be officially cancelled by Red.es.

    The  User will be held accountable for the use they make of the service and will be responsible for any
    claims that may be filed by third parties in this regard against Red.es and will have to compensate the
    public entity for any damages it may incur as a result.

    The data which can be consulted via this service include: availability, name of the holder of a domain,
    administrative and  technical contact identifiers,  domain creation date,  domain expiration date,  DNS
    name server and IP DNS server (a maximum of 4 DNS).

    A maximum of 15 queries per minute can be made by each registered IP address.

    Queries can be performed on second and third level domains.
    -------------------------------------------------------------------------------------------------------

    There is no information available on the domain consulted.

    >>> LAST UPDATE: {{now|DD/MM/YYYY HH:mm:ss}}
    -------------------------------------------------------------------------------------------------------
    More information on each domain may be consulted at www.dominios.es.
`;

export const redEs: WhoisFormat = {
  name: 'Red.es',
  host: 'whois.nic.es',
  timeZone: 'Europe/Madrid',
  eol: '\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
};
