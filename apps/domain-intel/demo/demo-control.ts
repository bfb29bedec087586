import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify from 'fastify';
import type { AdvancedDay } from './demo-advance.ts';

/** Most days one request may advance: a billing period and a day, enough to see a cancellation end. */
export const MAX_ADVANCE_DAYS = 62;

/** A webhook the demo's inbox received, as it arrived (the inbox verifies nothing: it shows). */
export interface InboxEntry {
  received_at: string;
  /** The sender's message id (`webhook-id`, or Stripe's none). */
  id: string | null;
  type: string | null;
  body: unknown;
}

export interface DemoControlOptions {
  host: string;
  port: number;
  /**
   * When `port` is taken, listen on any free one instead (the default port was not asked for):
   * `npm run demo` finds the server through DATA_DIR whatever its port, and a second demo or a
   * test's start must not fail over a convenience.
   */
  anyPortIfTaken: boolean;
  dataDir: string;
  /** Moves the demo on this many days (one at a time); `npm start` passes `advanceDemo` bound to its services. */
  advance(days: number): Promise<AdvancedDay[]>;
  /** Names that drop on the next day (pending delete now), for the newcomer to watch. */
  aboutToDrop(): string[];
  /** The demo's present, ms. */
  now(): number;
}

export interface DemoControl {
  url: string;
  /** Where deliveries can be sent to be seen: a webhook target for the dashboard. */
  inboxUrl: string;
  inbox: InboxEntry[];
  close(): Promise<void>;
}

/** The file beside the demo's data that says where its control server listens (read by `npm run demo`). */
export const controlFile = (dataDir: string) => path.join(dataDir, 'demo-control.json');

/**
 * The running demo's own small server on loopback, apart from the services: `POST /advance`
 * moves the simulated world on (what `npm run demo -- advance` asks), and `/inbox` is a webhook
 * receiver that keeps what arrives, so a saved filter's delivery or an account event can be
 * seen without writing a receiver first. Advances run one after another, never two at once.
 */
export async function startDemoControl(options: DemoControlOptions): Promise<DemoControl> {
  const app = Fastify({ logger: false });
  const inbox: InboxEntry[] = [];
  let queue: Promise<unknown> = Promise.resolve();

  app.get('/', async () => ({
    advance: 'POST /advance {"days": 1}',
    inbox: 'POST /inbox (a webhook target), GET /inbox (what arrived)',
  }));

  app.post('/advance', async (request, reply) => {
    const days = Number((request.body as { days?: unknown } | undefined)?.days ?? 1);
    if (!Number.isInteger(days) || days < 1 || days > MAX_ADVANCE_DAYS) {
      return reply.status(400).send({ error: `days must be a whole number from 1 to ${MAX_ADVANCE_DAYS}` });
    }
    const run = queue.then(() => options.advance(days));
    queue = run.catch(() => undefined);
    const advanced = await run;
    return {
      now: new Date(options.now()).toISOString(),
      days: advanced,
      about_to_drop: options.aboutToDrop(),
    };
  });

  app.post('/inbox', async (request, reply) => {
    const body = request.body as { type?: unknown } | undefined;
    inbox.push({
      received_at: new Date().toISOString(),
      id: typeof request.headers['webhook-id'] === 'string' ? request.headers['webhook-id'] : null,
      type: typeof body?.type === 'string' ? body.type : null,
      body: body ?? null,
    });
    return reply.status(204).send();
  });
  app.get('/inbox', async () => ({ received: inbox }));

  const url = await app.listen({ host: options.host, port: options.port }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' || !options.anyPortIfTaken) throw error;
    return app.listen({ host: options.host, port: 0 });
  });
  const file = controlFile(options.dataDir);
  await writeFile(file, `${JSON.stringify({ url, pid: process.pid }, null, 2)}\n`);
  return {
    url,
    inboxUrl: `${url}/inbox`,
    inbox,
    async close() {
      await app.close();
      await rm(file, { force: true });
    },
  };
}
