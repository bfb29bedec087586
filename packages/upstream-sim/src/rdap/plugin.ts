import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimWorld } from '../world.ts';
import { RdapFaultBoard, type RdapFaults } from './faults.ts';
import { SimRdapHosts } from './hosts.ts';
import { rdapError, registrarRecord, registryRecord } from './records.ts';
import {
  bootstrapFile,
  extraServers,
  isSimRdapServerId,
  isSimRegistryId,
  registryOf,
  type SimRdapServerId,
} from './registries.ts';

const RDAP_JSON = 'application/rdap+json';

/** What tests hold of the simulated RDAP servers (`sim.rdap`). */
export class RdapSimControl {
  readonly faults = new RdapFaultBoard();
  /** Per domain, a `related` link to publish instead of the registrar server's (SSRF tests). */
  readonly relatedOverrides = new Map<string, string>();
  readonly hungSockets = new Set<Socket>();
  #extraServers: (() => Promise<Record<string, string[]>>) | undefined;

  setFaults(server: SimRdapServerId, faults: Partial<RdapFaults>): RdapFaults {
    return this.faults.set(server, faults);
  }
  clearFaults(server?: SimRdapServerId): void {
    this.faults.clear(server);
  }
  requestCount(server: SimRdapServerId): number {
    return this.faults.requestCount(server);
  }
  resetCounts(): void {
    this.faults.resetCounts();
  }
  setRelatedLink(domain: string, href: string | null): void {
    if (href === null) this.relatedOverrides.delete(domain);
    else this.relatedOverrides.set(domain, href);
  }
  /**
   * TLD → base URLs of the simulated RDAP servers the bootstrap file leaves out, as real
   * registries' servers are missing from IANA's file: the value of RDAP_EXTRA_SERVERS.
   */
  extraServers(): Promise<Record<string, string[]>> {
    if (!this.#extraServers) throw new Error('the RDAP simulator is not registered on a server');
    return this.#extraServers();
  }
  /** Called by the plugin once it knows where its servers listen. */
  publishExtraServers(servers: () => Promise<Record<string, string[]>>): void {
    this.#extraServers = servers;
  }
}

interface Options {
  world: SimWorld;
  control: RdapSimControl;
}

/**
 * The RDAP part of the simulator, registered under /rdap:
 *   GET /rdap/bootstrap/dns.json                   the bootstrap file (RFC 9224)
 *   GET /rdap/<registry>/domain/<name>             registry answers (RFC 9082)
 *   GET /rdap/registrar/<iana id>/domain/<name>    the registrar's record behind `related`
 *   GET|PUT|DELETE /rdap/admin/faults[/<server>]   fault switches for the demo
 * Reserved names get a 404, as Verisign and most gTLD registries answer them: reserved
 * names are not registry objects. (Which is why /v1/check reads reserved lists first.)
 */
export async function rdapSimPlugin(app: FastifyInstance, { world, control }: Options): Promise<void> {
  const hosts = new SimRdapHosts(app);
  /** Where `server` lives: its own port (opened with the first bootstrap request), else the port asked. */
  const baseUrl = async (request: FastifyRequest, server: SimRdapServerId) =>
    `${(await hosts.origins()).get(server) ?? `${request.protocol}://${request.host}`}${app.prefix}`;

  control.publishExtraServers(async () => extraServers(await hosts.origins(), app.prefix));

  app.addHook('preClose', async () => {
    for (const socket of control.hungSockets) socket.destroy();
    await hosts.close();
  });

  app.get('/bootstrap/dns.json', async (_request, reply) => {
    reply.type('application/json');
    return bootstrapFile(await hosts.origins(), app.prefix, world.now());
  });

  app.get<{ Params: { registry: string; name: string } }>('/:registry/domain/:name', async (request, reply) => {
    const { registry } = request.params;
    if (!isSimRegistryId(registry)) return send(reply, 404, rdapError(404, 'Not Found', 'No such RDAP server.'));
    if (!(await applyFaults(control, registry, request, reply))) return reply;
    const name = request.params.name.toLowerCase().replace(/\.$/, '');
    const domain = world.get(name);
    if (!domain || registryOf(domain.tld) !== registry || world.isReserved(name)) {
      return send(reply, 404, rdapError(404, 'Not Found', `${name} is not registered.`));
    }
    const selfUrl = `${await baseUrl(request, registry)}/${registry}/domain/${name}`;
    const related =
      control.relatedOverrides.get(name) ??
      `${await baseUrl(request, 'registrar')}/registrar/${encodeURIComponent(domain.registrar.ianaId)}/domain/${name}`;
    return send(reply, 200, registryRecord(domain, registry, selfUrl, related, world.now()));
  });

  app.get<{ Params: { ianaId: string; name: string } }>('/registrar/:ianaId/domain/:name', async (request, reply) => {
    if (!(await applyFaults(control, 'registrar', request, reply))) return reply;
    const name = request.params.name.toLowerCase();
    const domain = world.get(name);
    if (!domain || domain.registrar.ianaId !== request.params.ianaId) {
      return send(reply, 404, rdapError(404, 'Not Found', `The registrar holds no record of ${name}.`));
    }
    return send(
      reply,
      200,
      registrarRecord(
        domain,
        `${await baseUrl(request, 'registrar')}${request.url.slice(app.prefix.length)}`,
        world.now(),
      ),
    );
  });

  app.get('/admin/faults', async () => control.faults.all());
  app.put<{ Params: { server: string }; Body: Partial<RdapFaults> }>(
    '/admin/faults/:server',
    async (request, reply) => {
      const { server } = request.params;
      if (!isSimRdapServerId(server)) return reply.code(404).send({ error: `unknown RDAP server ${server}` });
      return control.setFaults(server, request.body ?? {});
    },
  );
  app.delete('/admin/faults', async () => {
    control.clearFaults();
    return control.faults.all();
  });
}

function send(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).type(RDAP_JSON).send(body);
}

/** Plays the server's faults; false when the request has been answered (or swallowed) by one. */
async function applyFaults(
  control: RdapSimControl,
  server: SimRdapServerId,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const faults = control.faults.get(server);
  const inLastSecond = control.faults.record(server, Date.now());
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  const failure = control.faults.drawFailure(server);
  if (faults.hang || failure === 'hang') {
    const socket = request.raw.socket;
    control.hungSockets.add(socket);
    socket.once('close', () => control.hungSockets.delete(socket));
    reply.hijack();
    return false;
  }
  if (faults.rateLimitPerSecond !== null && inLastSecond > faults.rateLimitPerSecond) {
    reply.header('retry-after', String(faults.retryAfterSeconds));
    send(reply, 429, rdapError(429, 'Too Many Requests', 'Query rate exceeded.'));
    return false;
  }
  if (faults.errorStatus !== null || failure === 'error') {
    const status = failure === 'error' ? 503 : faults.errorStatus!;
    send(reply, status, rdapError(status, 'Server Error', 'The service is unavailable.'));
    return false;
  }
  if (faults.malformedJson) {
    reply.code(200).type(RDAP_JSON).send('{"objectClassName": "domain", "ldhName": ');
    return false;
  }
  if (faults.oversizeBytes !== null) {
    const padding = 'x'.repeat(Math.max(0, faults.oversizeBytes));
    send(reply, 200, { objectClassName: 'domain', remarks: [{ description: [padding] }] });
    return false;
  }
  return true;
}
