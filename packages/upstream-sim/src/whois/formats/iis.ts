import type { WhoisFormat } from '../format.ts';

/**
 * whois.iis.se (.se), the Swedish Internet Foundation. Templates follow
 * registered: likexian/whois-parser testdata/noterror/se_google.se (commit 2426ff1e36f7)
 * free: likexian/whois-parser testdata/notfound/se_likexian-have-no-money-to-register.se (commit 2426ff1e36f7)
 * The real server drops clients that query too fast.
 */
const REGISTERED = `# Copyright (c) 1997- The Swedish Internet Foundation.
# All rights reserved.
# The information obtained through searches, or otherwise, is protected
# by the Swedish Copyright Act (1960:729) and international conventions.
# It is also subject to database protection according to the Swedish
# Copyright Act.
# Any use of this material to target advertising or
# similar activities is forbidden and will be prosecuted.
# If any of the information below is transferred to a third
# party, it must be done in its entirety. This server must
# not be used as a backend for a search engine.
# Result of search for registered domain names under
# the .se top level domain.
# This whois printout is printed with UTF-8 encoding.
#
state:            {{state}}
domain:           {{domain}}
holder:           sim{{handle}}-se
created:          {{created|YYYY-MM-DD}}
modified:         {{updated|YYYY-MM-DD}}
expires:          {{expires|YYYY-MM-DD}}
transferred:      {{created|YYYY-MM-DD}}
nserver:          {{ns}}
dnssec:           unsigned delegation
registry-lock:    unlocked
status:           {{status}}
registrar:        {{registrar}}
`;

const FREE = `# Copyright (c) 1997- The Swedish Internet Foundation.
# All rights reserved.
# The information obtained through searches, or otherwise, is protected
# by the Swedish Copyright Act (1960:729) and international conventions.
# It is also subject to database protection according to the Swedish
# Copyright Act.
# Any use of this material to target advertising or
# similar activities is forbidden and will be prosecuted.
# If any of the information below is transferred to a third
# party, it must be done in its entirety. This server must
# not be used as a backend for a search engine.
# Result of search for registered domain names under
# the .se top level domain.
# This whois printout is printed with UTF-8 encoding.
#
domain "{{domain}}" not found.
`;

export const iis: WhoisFormat = {
  name: 'The Swedish Internet Foundation',
  host: 'whois.iis.se',
  timeZone: 'Europe/Stockholm',
  eol: '\n',
  charset: 'utf-8',
  registered: () => REGISTERED,
  free: () => FREE,
  state: (domain) => (domain.inZone ? 'active' : 'deactivated'),
};
