import PQueue from 'p-queue';
import type { Agent } from 'undici';
import { EnrichmentSourceError, enrichmentAgent, requestJson } from './http-json.ts';

export interface WaybackClientOptions {
  /** The CDX server endpoint, e.g. https://web.archive.org/cdx/search/cdx */
  cdxUrl: string;
  requestsPerMinute: number;
  timeoutMs: number;
}

const CDX_TIMESTAMP = /^(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?(\d{2})?$/;

/** A CDX 14-digit timestamp (YYYYMMDDhhmmss, UTC; shorter prefixes allowed) as epoch ms. */
export function parseCdxTimestamp(value: string): number | null {
  const match = CDX_TIMESTAMP.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = match;
  const time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const date = new Date(time);
  if (date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return null;
  return time;
}

/**
 * Reads a CDX `output=json` answer: an array of arrays whose first row names the fields
 * (`[["timestamp","original"],["19970126045828","http://example.com:80/"]]`), or `[]` when
 * nothing was captured. Returns the first capture time, or null when there is none.
 */
export function parseFirstCapture(body: unknown): number | null {
  if (!Array.isArray(body)) throw new EnrichmentSourceError('wayback', 'the CDX answer is not a JSON array');
  if (body.length === 0) return null;
  const [header, first] = body as unknown[];
  if (!Array.isArray(header) || !header.every((field) => typeof field === 'string')) {
    throw new EnrichmentSourceError('wayback', 'the CDX answer has no header row');
  }
  if (first === undefined) return null;
  const column = header.indexOf('timestamp');
  if (column < 0 || !Array.isArray(first) || typeof first[column] !== 'string') {
    throw new EnrichmentSourceError('wayback', 'the CDX answer has no timestamp field');
  }
  const time = parseCdxTimestamp(first[column]);
  if (time === null) throw new EnrichmentSourceError('wayback', `bad CDX timestamp "${first[column]}"`);
  return time;
}

/**
 * First capture of a site's home page in the Wayback Machine, through the CDX server API.
 * An exact-URL query returns captures oldest first, so `limit=1` is the first capture; the
 * CDX server canonicalises scheme and `www.`, so `example.com` covers both.
 */
export class WaybackClient {
  readonly #agent: Agent;
  readonly #queue: PQueue;

  constructor(private readonly options: WaybackClientOptions) {
    this.#agent = enrichmentAgent(options.timeoutMs);
    // Spread evenly over the minute rather than in bursts: the archive throttles bursts.
    const perSecond = options.requestsPerMinute / 60;
    this.#queue =
      perSecond >= 1
        ? new PQueue({ concurrency: 4, interval: 1_000, intervalCap: Math.floor(perSecond) })
        : new PQueue({ concurrency: 1, interval: Math.ceil(60_000 / options.requestsPerMinute), intervalCap: 1 });
  }

  firstCapture(domain: string): Promise<number | null> {
    const url = new URL(this.options.cdxUrl);
    url.search = new URLSearchParams({
      url: domain,
      output: 'json',
      fl: 'timestamp,original',
      limit: '1',
    }).toString();
    return this.#queue.add(async () => parseFirstCapture(await requestJson('wayback', this.#agent, url.toString())));
  }

  async close(): Promise<void> {
    this.#queue.clear();
    await this.#agent.close();
  }
}
