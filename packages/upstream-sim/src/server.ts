import Fastify, { type FastifyInstance } from 'fastify';
import { CzdsSimControl, czdsApiSimPlugin, czdsAuthSimPlugin } from './czds/index.ts';
import { majesticSimPlugin } from './majestic/index.ts';
import { mozSimPlugin } from './moz/index.ts';
import { RdapSimControl, rdapSimPlugin } from './rdap/index.ts';
import { waybackSimPlugin } from './wayback/index.ts';
import { SimWorld } from './world.ts';

export interface UpstreamSimOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  world?: SimWorld;
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
  /** RDAP servers: fault switches, request counts, crafted `related` links. */
  rdap: RdapSimControl;
  /** CZDS: accepted account, served zones, download faults and counters. */
  czds: CzdsSimControl;
  /** Requests served by the Wayback CDX (`/wayback`), Moz (`/moz`) and Majestic (`/majestic`) simulators. */
  webStats: WebSimStats;
  close(): Promise<void>;
}

export async function buildSimServer(world: SimWorld): Promise<FastifyInstance> {
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
  const webStats: WebSimStats = { wayback: { requests: 0 }, moz: { requests: 0 }, majestic: { requests: 0 } };
  app.decorate('webStats', webStats);
  await app.register(waybackSimPlugin, { prefix: '/wayback', world, stats: webStats.wayback });
  await app.register(mozSimPlugin, { prefix: '/moz', world, stats: webStats.moz });
  await app.register(majesticSimPlugin, { prefix: '/majestic', world, stats: webStats.majestic });
  return app;
}

export async function startUpstreamSim(options: UpstreamSimOptions = {}): Promise<UpstreamSim> {
  const world = options.world ?? new SimWorld();
  const app = await buildSimServer(world);
  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return { url: address, world, app, czds: app.czds, rdap: app.rdap, webStats: app.webStats, close: () => app.close() };
}

declare module 'fastify' {
  interface FastifyInstance {
    world: SimWorld;
    czds: CzdsSimControl;
    rdap: RdapSimControl;
    webStats: WebSimStats;
  }
}

export interface WebSimStats {
  wayback: { requests: number };
  moz: { requests: number };
  majestic: { requests: number };
}
