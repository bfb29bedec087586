/** The baseline every throughput figure is divided by: a bare Fastify hello-world, no logging. */
import Fastify from 'fastify';
import type { StartedServer } from './server-process.ts';

export async function helloWorld(): Promise<StartedServer<null>> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, info: null, close: () => app.close() };
}
