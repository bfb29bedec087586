import type { FastifyInstance } from 'fastify';
import check from './check.ts';
import deliveries from './deliveries.ts';
import domains from './domains.ts';
import domainsExport from './export.ts';
import quota from './quota.ts';
import sample from './sample.ts';
import snapshots from './snapshots.ts';
import suggest from './suggest.ts';
import tlds from './tlds.ts';
import watchlist from './watchlist.ts';
import whois from './whois.ts';

/**
 * Every /v1 endpoint, one file each. The authentication hook (registered around this plugin in
 * app.ts) requires a key and counts quota unless a route's config says otherwise.
 */
export async function v1Routes(app: FastifyInstance): Promise<void> {
  await app.register(quota);
  await app.register(check);
  await app.register(whois);
  await app.register(suggest);
  await app.register(domains);
  await app.register(domainsExport);
  await app.register(sample);
  await app.register(snapshots);
  await app.register(deliveries);
  await app.register(watchlist);
  await app.register(tlds);
}
