import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { Agent, type Dispatcher, request } from 'undici';

const DECODERS: Record<string, (input: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** Why an enrichment source gave no answer; the row stays due and is tried again later. */
export class EnrichmentSourceError extends Error {
  constructor(
    readonly source: 'wayback' | 'moz' | 'majestic',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${source}: ${message}`, options);
    this.name = 'EnrichmentSourceError';
  }
}

const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** One undici pool per client with connect and whole-exchange timeouts and a response cap. */
export function enrichmentAgent(timeoutMs: number): Agent {
  return new Agent({
    connections: 8,
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    maxResponseSize: MAX_RESPONSE_BYTES,
  });
}

type RequestOptions = { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };

/** Sends one request and returns the parsed JSON body of a 2xx answer; anything else throws. */
export async function requestJson(
  source: EnrichmentSourceError['source'],
  dispatcher: Dispatcher,
  url: string,
  options: RequestOptions = {},
): Promise<unknown> {
  const text = await requestText(source, dispatcher, url, options);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EnrichmentSourceError(source, 'the response is not JSON', { cause: error });
  }
}

/** Sends one request and returns the decoded body of a 2xx answer as text; anything else throws. */
export async function requestText(
  source: EnrichmentSourceError['source'],
  dispatcher: Dispatcher,
  url: string,
  options: RequestOptions = {},
): Promise<string> {
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      dispatcher,
      method: options.method ?? 'GET',
      // The Wayback CDX server compresses when asked (recorded: `Content-Encoding: gzip`); we ask,
      // since CDX answers are large text, and decode whatever encoding comes back.
      headers: {
        accept: 'application/json',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': 'domain-intel/1.0',
        ...options.headers,
      },
      body: options.body,
    });
  } catch (error) {
    throw new EnrichmentSourceError(source, `request failed (${(error as Error).message})`, { cause: error });
  }
  const text = await decodedText(source, response).catch((error: Error) => {
    if (error instanceof EnrichmentSourceError) throw error;
    throw new EnrichmentSourceError(source, `reading the response failed (${error.message})`, { cause: error });
  });
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw new EnrichmentSourceError(source, `HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
  }
  return text;
}

/** The body as text, decoded per `Content-Encoding` with the same size cap as the raw body. */
async function decodedText(
  source: EnrichmentSourceError['source'],
  response: Dispatcher.ResponseData,
): Promise<string> {
  const encoding = String(response.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  const raw = Buffer.from(await response.body.arrayBuffer());
  if (encoding === 'identity' || encoding === '') return raw.toString('utf8');
  const decode = DECODERS[encoding];
  if (!decode) throw new EnrichmentSourceError(source, `the response has an unknown encoding "${encoding}"`);
  try {
    return (await decode(raw, { maxOutputLength: MAX_RESPONSE_BYTES })).toString('utf8');
  } catch (error) {
    throw new EnrichmentSourceError(source, `the ${encoding} response could not be decoded`, { cause: error });
  }
}
