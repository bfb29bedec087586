/**
 * The server process of a benchmark (started by server-process.ts): imports the factory named
 * in BENCH_SERVER, starts the server, reports where it listens, then answers `cpu` requests with
 * this process's own CPU counters and stops on `close` or when the benchmark goes away.
 */
import type { ServerFactory, StartedServer } from './server-process.ts';

const { module, exportName, options } = JSON.parse(process.env.BENCH_SERVER ?? '{}') as {
  module: string;
  exportName: string;
  options: unknown;
};
const send = (message: unknown) => process.send?.(message);

let server: StartedServer<unknown>;
try {
  const factory = (await import(module))[exportName] as ServerFactory<unknown, unknown> | undefined;
  if (typeof factory !== 'function') throw new Error(`${module} exports no function ${exportName}`);
  server = await factory(options);
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
}

let closing = false;
async function stop(): Promise<void> {
  if (closing) return;
  closing = true;
  await server.close();
  process.disconnect?.();
  // process.exit (not a kill) so `--cpu-prof` writes its profile.
  process.exit(0);
}

process.on('message', (message: { type: string; id?: number }) => {
  if (message.type === 'cpu') {
    const usage = process.cpuUsage();
    send({
      type: 'cpu',
      id: message.id,
      userUs: usage.user,
      systemUs: usage.system,
      rssMb: process.memoryUsage.rss() / 1_048_576,
    });
  } else if (message.type === 'gc') {
    // Only with BENCH_SERVER_NODE_FLAGS=--expose-gc: a full collection before memory is read, to tell
    // garbage not yet collected from what the process keeps.
    (globalThis as { gc?: () => void }).gc?.();
    send({ type: 'gc', id: message.id, collected: typeof (globalThis as { gc?: unknown }).gc === 'function' });
  } else if (message.type === 'close') {
    void stop();
  }
});
process.on('disconnect', () => void stop());
send({ type: 'ready', url: server.url, info: server.info });
