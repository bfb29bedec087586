import { createServer, type Server } from 'node:http';

/**
 * A server that accepts requests and never answers: the only way to see a client's own
 * timeout and abort without racing a real service.
 */
export async function startHangingServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const open = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((_request, response) => {
    open.add(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as import('node:net').AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    async close() {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
