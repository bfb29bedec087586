import PQueue from 'p-queue';
import type { Agent } from 'undici';
import { EnrichmentSourceError, enrichmentAgent, requestText } from './http-json.ts';

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

/** The fields of a CDX line when no `fl=` is given (the CDX server's documentation, "Basic Usage"). */
export const CDX_DEFAULT_FIELDS = ['urlkey', 'timestamp', 'original', 'mimetype', 'statuscode', 'digest', 'length'];

/** A CDX answer: its captures (field → value) and the key that resumes the query, when one was printed. */
export interface CdxAnswer {
  captures: Record<string, string>[];
  resumeKey: string | null;
}

/**
 * Reads a CDX answer in either output: `output=json` (a header row naming the fields, one row per
 * capture, then with `showResumeKey=true` an empty row and `[resumeKey]`), or the default plain
 * text (one capture per line, fields in `fields` order, then a blank line and the resume key).
 */
export function readCdxAnswer(text: string, fields: string[] = CDX_DEFAULT_FIELDS): CdxAnswer {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let body: unknown;
    try {
      body = JSON.parse(trimmed);
    } catch (error) {
      throw new EnrichmentSourceError('wayback', 'the CDX answer is neither JSON nor CDX lines', { cause: error });
    }
    if (!Array.isArray(body)) throw new EnrichmentSourceError('wayback', 'the CDX answer is not a JSON array');
    if (body.length === 0) return { captures: [], resumeKey: null };
    const [header, ...rows] = body as unknown[];
    if (!Array.isArray(header) || !header.every((field) => typeof field === 'string')) {
      throw new EnrichmentSourceError('wayback', 'the CDX answer has no header row');
    }
    const separator = rows.findIndex((row) => Array.isArray(row) && row.length === 0);
    const data = separator < 0 ? rows : rows.slice(0, separator);
    const key = separator < 0 ? undefined : rows[separator + 1];
    return {
      captures: data.map((row) => captureOf(header, row)),
      resumeKey: Array.isArray(key) && typeof key[0] === 'string' ? key[0] : null,
    };
  }
  const lines = trimmed.split('\n').map((line) => line.trim());
  const blank = lines.indexOf('');
  const data = (blank < 0 ? lines : lines.slice(0, blank)).filter((line) => line !== '');
  const key = blank < 0 ? undefined : lines.slice(blank).find((line) => line !== '');
  return { captures: data.map((line) => captureOf(fields, line.split(/ +/))), resumeKey: key ?? null };
}

/**
 * The first capture's time of a CDX answer (its text, or its JSON already parsed), or null when
 * nothing was captured. An exact-URL query lists captures oldest first.
 */
export function parseFirstCapture(answer: unknown): number | null {
  const [first] = readCdxAnswer(typeof answer === 'string' ? answer : JSON.stringify(answer)).captures;
  if (first === undefined) return null;
  const time = first.timestamp === undefined ? null : parseCdxTimestamp(first.timestamp);
  if (time === null)
    throw new EnrichmentSourceError('wayback', `bad CDX timestamp "${first.timestamp}" (no timestamp field?)`);
  return time;
}

function captureOf(fields: string[], row: unknown): Record<string, string> {
  if (!Array.isArray(row) || row.length !== fields.length || !row.every((value) => typeof value === 'string')) {
    throw new EnrichmentSourceError(
      'wayback',
      `a CDX row does not have the ${fields.length} fields ${fields.join(',')}`,
    );
  }
  return Object.fromEntries(fields.map((field, index) => [field, row[index] as string]));
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
    // The default fields (no `fl=`): a plain-text answer, which a server or proxy may send despite
    // `output=json`, is then read by the documented field order.
    url.search = new URLSearchParams({ url: domain, output: 'json', limit: '1' }).toString();
    return this.#queue.add(async () => parseFirstCapture(await requestText('wayback', this.#agent, url.toString())));
  }

  async close(): Promise<void> {
    this.#queue.clear();
    await this.#agent.close();
  }
}
