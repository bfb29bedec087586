import { routeOf, SIM_TLDS } from '../tld-routing.ts';
import { WhoisFaultBoard, type WhoisFaults } from './faults.ts';
import { isSimWhoisServerId, type SimWhoisServerId } from './registries.ts';
import type { SimWhoisServers } from './servers.ts';

/** What tests and the demo hold of the simulated WHOIS servers (`sim.whois`). */
export class WhoisSimControl {
  readonly faults = new WhoisFaultBoard();
  #servers: SimWhoisServers | undefined;

  /** Called once the servers listen. */
  attach(servers: SimWhoisServers): void {
    this.#servers = servers;
  }

  setFaults(server: SimWhoisServerId, faults: Partial<WhoisFaults>): WhoisFaults {
    return this.faults.set(server, faults);
  }
  clearFaults(server?: SimWhoisServerId): void {
    this.faults.clear(server);
  }
  /** Connections a server has taken a query on (or refused). */
  requestCount(server: SimWhoisServerId): number {
    return this.faults.requestCount(server);
  }
  resetCounts(): void {
    this.faults.resetCounts();
  }
  /** `127.0.0.1:<port>` of one server. */
  address(server: SimWhoisServerId): string {
    if (!this.#servers) throw new Error('the WHOIS simulator is not listening');
    return this.#servers.address(server);
  }
  /** TLD → `127.0.0.1:<port>` of the simulated WHOIS server that answers for it: the value of WHOIS_SERVERS. */
  servers(): Record<string, string> {
    const servers: Record<string, string> = {};
    for (const tld of SIM_TLDS) {
      const server = routeOf(tld)?.whois;
      if (server !== undefined && isSimWhoisServerId(server)) servers[tld] = this.address(server);
    }
    return servers;
  }
}
