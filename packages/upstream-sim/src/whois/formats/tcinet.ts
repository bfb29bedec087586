import type { WhoisFormat } from '../format.ts';

/**
 * whois.tcinet.ru (.ru), the Technical Center of Internet for the Coordination Center of .RU. Templates follow
 * registered: likexian/whois-parser testdata/noterror/ru_google.ru (commit 2426ff1e36f7), below the terms notice of
 * free: likexian/whois-parser testdata/notfound/ru_likexian-have-no-money-to-register.ru (commit 2426ff1e36f7) (the notice of 2022; the registered answer is of 2019).
 * free-date is written as the expiry date (the real one is about a month later). The real server drops clients that query too fast.
 */
const REGISTERED = `% By submitting a query to TCI's Whois Service
% you agree to abide by the following terms of use:
% https://www.tcinet.ru/documents/whois.pdf (in Russian)

domain:        {{DOMAIN}}
nserver:       {{ns}}.
state:         {{state}}
org:           {{registrant}}
registrar:     {{registrar}}
admin-contact: https://www.nic.ru/whois
created:       {{created|YYYY-MM-DDTHH:mm:ss}}Z
paid-till:     {{expires|YYYY-MM-DDTHH:mm:ss}}Z
free-date:     {{expires|YYYY-MM-DD}}
source:        TCI

Last updated on {{now|YYYY-MM-DDTHH:mm:ss}}Z


`;

const FREE = `% By submitting a query to TCI's Whois Service
% you agree to abide by the following terms of use:
% https://www.tcinet.ru/documents/whois.pdf (in Russian)

No entries found for the selected source(s).

Last updated on {{now|YYYY-MM-DDTHH:mm:ss}}Z
`;

export const tcinet: WhoisFormat = {
  name: 'Technical Center of Internet',
  host: 'whois.tcinet.ru',
  timeZone: 'UTC',
  eol: '\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
  state: (domain) => (domain.inZone ? 'REGISTERED, DELEGATED, VERIFIED' : 'REGISTERED, NOT DELEGATED, VERIFIED'),
};
