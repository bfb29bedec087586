import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  body: {
    type: string;
    timestamp: string;
    data: { batch_id: string; sequence: number; rows: Array<{ domain: string }> } & Record<string, unknown>;
  };
}

/** A webhook receiver on loopback that verifies every signature and answers as the test says. */
export async function startReceiver() {
  const received: Received[] = [];
  // Every target secret the test created: a message must verify under one of them.
  const secrets: string[] = [];
  // 'keep': take the message (it counts as received) but never answer, like a receiver whose
  // sender dies before the answer arrives.
  let answer: 'ok' | 'fail' | 'hang' | 'keep' = 'ok';
  const readBody = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const server: Server = createServer(async (request, response) => {
    const payload = await readBody(request);
    if (answer === 'hang') return; // never answers: the sender's timeout must end it
    if (answer === 'fail') {
      response.writeHead(500).end('down');
      return;
    }
    // Throws on a bad signature or a stale timestamp, which fails the test through a 400.
    for (const secret of secrets) {
      try {
        const body = new Webhook(secret).verify(payload, request.headers as Record<string, string>) as Received['body'];
        received.push({ id: String(request.headers['webhook-id']), body });
        if (answer === 'keep') return;
        response.writeHead(204).end();
        return;
      } catch {
        // try the next secret
      }
    }
    response.writeHead(400).end('bad signature');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** Accept messages signed with this secret too. */
    setSecret: (value: string) => {
      secrets.push(value);
    },
    answer: (value: typeof answer) => {
      answer = value;
    },
    /** Filter-batch rows as a receiver that drops repeated webhook-ids (as Standard Webhooks asks) sees them. */
    uniqueRows: () => {
      const seen = new Set<string>();
      return received
        .filter((entry) => entry.body.type === 'filter.batch')
        .filter((entry) => !seen.has(entry.id) && seen.add(entry.id))
        .flatMap((entry) => entry.body.data.rows.map((row) => row.domain));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startReceiver>>;
