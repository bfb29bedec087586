import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SIM_RDAP_SERVER_IDS, type SimRdapServerId } from './registries.ts';

/**
 * Real registries are separate hosts, and RDAP clients limit, pool and break circuits per
 * host. So that a client sees the simulated registries (and the registrar) as separate
 * hosts too, each gets its own loopback port, routed into the one simulator app. The ports
 * open with the first bootstrap request; the main port serves the same paths.
 */
export class SimRdapHosts {
  readonly #servers: Server[] = [];
  readonly #origins = new Map<SimRdapServerId, string>();
  #opening: Promise<void> | undefined;

  constructor(private readonly app: FastifyInstance) {}

  /** `http://127.0.0.1:<port>` of each simulated server. */
  async origins(): Promise<ReadonlyMap<SimRdapServerId, string>> {
    this.#opening ??= this.#open();
    await this.#opening;
    return this.#origins;
  }

  async close(): Promise<void> {
    await this.#opening?.catch(() => {});
    await Promise.all(
      this.#servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  }

  async #open(): Promise<void> {
    const main = this.app.server.address() as AddressInfo;
    for (const id of SIM_RDAP_SERVER_IDS) {
      const server = createServer((request, response) => this.app.routing(request, response));
      this.#servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, main.address, resolve));
      const { port } = server.address() as AddressInfo;
      const host = main.family === 'IPv6' ? `[${main.address}]` : main.address;
      this.#origins.set(id, `http://${host}:${port}`);
    }
  }
}
