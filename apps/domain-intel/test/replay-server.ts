import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseYaml } from 'yaml';

/** One recorded answer: status, headers and body bytes, replayed as they were. */
export interface ReplayedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/**
 * A loopback HTTP server that answers each path with a recorded (or a written) answer, and
 * counts the requests per path. Tests point the service's upstream URLs at it.
 */
export class ReplayServer {
  readonly #answers = new Map<string, ReplayedAnswer | ((request: IncomingMessage) => ReplayedAnswer)>();
  readonly requests = new Map<string, number>();
  readonly #server: Server;
  url = '';

  constructor() {
    this.#server = createServer((request, response) => this.#handle(request, response));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  answer(path: string, answer: ReplayedAnswer | ((request: IncomingMessage) => ReplayedAnswer)): void {
    this.#answers.set(path, answer);
  }

  clear(): void {
    this.#answers.clear();
    this.requests.clear();
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'http://replay').pathname;
    this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
    const entry = this.#answers.get(path);
    const answer = typeof entry === 'function' ? entry(request) : entry;
    if (!answer) {
      response.writeHead(599, { 'content-type': 'text/plain' }).end(`no recorded answer for ${path}`);
      return;
    }
    // Headers are written raw so that a missing content type stays missing.
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  }
}

/** Headers whose value the replay server sets itself (length, framing, connection). */
const FRAMING_HEADER = /^(content-length|transfer-encoding|connection)$/i;

/**
 * Reads a raw HTTP/1.1 response as recorded (nicinfo's `spec/recorded_responses`): status line,
 * headers, a blank line, the body (already de-chunked). Line ends may be CRLF or LF.
 */
export function readRawHttpResponse(text: string): ReplayedAnswer {
  const split = /\r?\n\r?\n/.exec(text);
  if (!split) throw new Error('not an HTTP response: no blank line after the headers');
  const [statusLine, ...headerLines] = text.slice(0, split.index).split(/\r?\n/);
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!status) throw new Error(`not an HTTP status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    if (colon > 0 && !FRAMING_HEADER.test(name)) headers[name.toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(status[1]), headers, body: text.slice(split.index + split[0].length).trimEnd() };
}

/** One exchange of a VCR cassette (Ruby `vcr`): request URI, then the response as recorded. */
export interface CassetteExchange {
  uri: string;
  answer: ReplayedAnswer;
}

/** Reads a VCR cassette (`http_interactions`), keeping status, headers and body as recorded. */
export function readCassette(text: string): CassetteExchange[] {
  // Ruby's YAML writes non-UTF-8 bodies as `!binary` (base64), a local tag of its own.
  const binary = { tag: '!binary', resolve: (value: string) => Buffer.from(value.replace(/\s+/g, ''), 'base64') };
  const cassette = parseYaml(text, { customTags: [binary] }) as {
    http_interactions: {
      request: { uri: string };
      response: { status: { code: number }; headers: Record<string, string[]>; body: { string: string | Uint8Array } };
    }[];
  };
  return cassette.http_interactions.map(({ request, response }) => {
    const headers: Record<string, string> = {};
    for (const [name, values] of Object.entries(response.headers)) {
      // Length and encoding are the replay server's own business.
      if (FRAMING_HEADER.test(name)) continue;
      headers[name.toLowerCase()] = values.join(', ');
    }
    const body = response.body.string;
    return {
      uri: request.uri,
      answer: {
        status: response.status.code,
        headers,
        body: typeof body === 'string' ? body : Buffer.from(body),
      },
    };
  });
}
