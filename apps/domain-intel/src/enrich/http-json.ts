import { Agent, type Dispatcher, request } from 'undici';

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

/** Sends one request and returns the parsed JSON body of a 2xx answer; anything else throws. */
export async function requestJson(
  source: EnrichmentSourceError['source'],
  dispatcher: Dispatcher,
  url: string,
  options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<unknown> {
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      dispatcher,
      method: options.method ?? 'GET',
      headers: { accept: 'application/json', 'user-agent': 'domain-intel/1.0', ...options.headers },
      body: options.body,
    });
  } catch (error) {
    throw new EnrichmentSourceError(source, `request failed (${(error as Error).message})`, { cause: error });
  }
  const text = await response.body.text().catch((error: Error) => {
    throw new EnrichmentSourceError(source, `reading the response failed (${error.message})`, { cause: error });
  });
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw new EnrichmentSourceError(source, `HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EnrichmentSourceError(source, 'the response is not JSON', { cause: error });
  }
}
