import Fastify, { type FastifyInstance } from 'fastify';
import { CzdsSimControl, czdsApiSimPlugin, czdsAuthSimPlugin } from './czds/index.ts';
import { majesticSimPlugin } from './majestic/index.ts';
import { mozSimPlugin } from './moz/index.ts';
import { RdapSimControl, rdapSimPlugin } from './rdap/index.ts';
import { StripeSimControl, type StripeSimOptions, stripeSimPlugin } from './stripe/index.ts';
import { waybackSimPlugin } from './wayback/index.ts';
import { SimWhoisServers, WhoisSimControl, whoisSimPlugin } from './whois/index.ts';
import { SimWorld } from './world.ts';

export interface UpstreamSimOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  world?: SimWorld;
  /** The Stripe account played at `/v1/…` (secret key, clock). */
  stripe?: StripeSimOptions;
}

/**
 * One HTTP server on loopback that plays every upstream: each simulated service is a
 * Fastify plugin under its own path prefix, registered in `buildSimServer`.
 */
export interface UpstreamSim {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  world: SimWorld;
  app: FastifyInstance;
  /** RDAP servers: fault switches, request counts, crafted `related` links, the servers IANA's file would lack. */
  rdap: RdapSimControl;
  /** Port-43 WHOIS servers: their addresses per TLD, fault switches, query counts. */
  whois: WhoisSimControl;
  /** CZDS: accepted account, served zones, download faults and counters. */
  czds: CzdsSimControl;
  /** Requests served by the Wayback CDX (`/wayback`), Moz (`/moz`) and Majestic (`/majestic`) simulators. */
  webStats: WebSimStats;
  /** Stripe: customers, Checkout, the portal, subscriptions, invoices and signed webhooks. */
  stripe: StripeSimControl;
  close(): Promise<void>;
}

export async function buildSimServer(world: SimWorld, stripeOptions: StripeSimOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.decorate('world', world);
  app.get('/', async () => ({ service: 'upstream-sim' }));
  const czds = new CzdsSimControl();
  app.decorate('czds', czds);
  await app.register(czdsAuthSimPlugin, { prefix: '/czds-auth', control: czds });
  await app.register(czdsApiSimPlugin, { prefix: '/czds', control: czds, world });
  const rdap = new RdapSimControl();
  app.decorate('rdap', rdap);
  await app.register(rdapSimPlugin, { prefix: '/rdap', world, control: rdap });
  const whois = new WhoisSimControl();
  app.decorate('whois', whois);
  await app.register(whoisSimPlugin, { prefix: '/whois', control: whois });
  const webStats: WebSimStats = { wayback: { requests: 0 }, moz: { requests: 0 }, majestic: { requests: 0 } };
  app.decorate('webStats', webStats);
  await app.register(waybackSimPlugin, { prefix: '/wayback', world, stats: webStats.wayback });
  await app.register(mozSimPlugin, { prefix: '/moz', world, stats: webStats.moz });
  await app.register(majesticSimPlugin, { prefix: '/majestic', world, stats: webStats.majestic });
  const stripe = new StripeSimControl(stripeOptions);
  app.decorate('stripe', stripe);
  // Stripe's API lives at the root (/v1/…): the official SDK takes a host and port, not a path prefix.
  await app.register(stripeSimPlugin, { control: stripe });
  return app;
}

export async function startUpstreamSim(options: UpstreamSimOptions = {}): Promise<UpstreamSim> {
  const world = options.world ?? new SimWorld();
  const app = await buildSimServer(world, options.stripe);
  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  app.stripe.setBaseUrl(() => address);
  const whois = app.whois;
  const whoisServers = new SimWhoisServers(world, whois.faults);
  try {
    await whoisServers.open(new URL(address).hostname);
  } catch (error) {
    await whoisServers.close();
    await app.close();
    throw error;
  }
  whois.attach(whoisServers);
  return {
    url: address,
    world,
    app,
    czds: app.czds,
    rdap: app.rdap,
    whois,
    webStats: app.webStats,
    stripe: app.stripe,
    async close() {
      await app.stripe.webhooks.settled();
      await whoisServers.close();
      await app.close();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    world: SimWorld;
    czds: CzdsSimControl;
    rdap: RdapSimControl;
    whois: WhoisSimControl;
    webStats: WebSimStats;
    stripe: StripeSimControl;
  }
}

export interface WebSimStats {
  wayback: { requests: number };
  moz: { requests: number };
  majestic: { requests: number };
}
