import type { FastifyInstance } from 'fastify';
import type { WhoisSimControl } from './control.ts';
import type { WhoisFaults } from './faults.ts';
import { isSimWhoisServerId } from './registries.ts';

/**
 * The WHOIS servers' switches over HTTP, for the demo (the servers themselves speak port-43
 * WHOIS on ports of their own), registered under /whois:
 *   GET /whois/servers                             TLD → host:port
 *   GET|PUT|DELETE /whois/admin/faults[/<server>]  fault switches
 */
export async function whoisSimPlugin(app: FastifyInstance, { control }: { control: WhoisSimControl }): Promise<void> {
  app.get('/servers', async () => control.servers());
  app.get('/admin/faults', async () => control.faults.all());
  app.put<{ Params: { server: string }; Body: Partial<WhoisFaults> }>(
    '/admin/faults/:server',
    async (request, reply) => {
      const { server } = request.params;
      if (!isSimWhoisServerId(server)) return reply.code(404).send({ error: `unknown WHOIS server ${server}` });
      return control.setFaults(server, request.body ?? {});
    },
  );
  app.delete('/admin/faults', async () => {
    control.clearFaults();
    return control.faults.all();
  });
}
