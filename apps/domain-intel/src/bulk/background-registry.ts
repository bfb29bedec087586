import type { RdapClient } from '../rdap/types.ts';

/**
 * The registry client as a bulk job asks it: every lookup is `background` traffic, so it takes at
 * most the background share of each server's rate (1 − RDAP_INTERACTIVE_SHARE) and waits behind
 * interactive checks in the server's lane; /v1/check keeps its priority however big the job.
 */
export function backgroundRegistry(registry: RdapClient): RdapClient {
  return { lookupDomain: (name, options) => registry.lookupDomain(name, { ...options, traffic: 'background' }) };
}
