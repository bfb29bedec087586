import type { Agent } from 'undici';
import { EnrichmentSourceError, enrichmentAgent, requestJson } from './http-json.ts';

/** GetIndexItemInfo takes up to 100 items per call. */
export const MAJESTIC_BATCH = 100;

export interface MajesticClientOptions {
  url: string;
  apiKey: string;
  timeoutMs: number;
}

export interface FlowMetrics {
  tf: number | null;
  cf: number | null;
}

interface MajesticItem {
  Item?: unknown;
  ResultCode?: unknown;
  Status?: unknown;
  TrustFlow?: unknown;
  CitationFlow?: unknown;
}

const flow = (value: unknown) => (typeof value === 'number' && value >= 0 ? Math.round(value) : null);

/**
 * Reads a GetIndexItemInfo JSON answer: `{"Code": "OK", "DataTables": {"Results": {"Data": [
 * {"Item": "example.com", "ResultCode": "OK", "TrustFlow": 31, "CitationFlow": 40, …}]}}}`.
 * A `Code` other than OK is an error of the whole call (bad key, no units left). An item the
 * index does not know comes back `"ResultCode": "OK", "Status": "NotFound"` with TrustFlow and
 * CitationFlow 0: that is "unknown" (null), not a Trust Flow of 0.
 */
export function parseIndexItemInfo(body: unknown, items: readonly string[]): Map<string, FlowMetrics> {
  const answer = body as { Code?: unknown; ErrorMessage?: unknown; DataTables?: { Results?: { Data?: unknown } } };
  if (answer?.Code !== 'OK') {
    throw new EnrichmentSourceError('majestic', `${String(answer?.Code)}: ${String(answer?.ErrorMessage ?? '')}`);
  }
  const data = answer.DataTables?.Results?.Data;
  if (!Array.isArray(data)) throw new EnrichmentSourceError('majestic', 'the answer has no Results table');
  const byItem = new Map<string, MajesticItem>();
  for (const row of data as MajesticItem[]) {
    if (typeof row?.Item === 'string') byItem.set(row.Item.toLowerCase(), row);
  }
  const metrics = new Map<string, FlowMetrics>();
  for (const item of items) {
    const row = byItem.get(item);
    metrics.set(
      item,
      row && row.ResultCode === 'OK' && row.Status !== 'NotFound'
        ? { tf: flow(row.TrustFlow), cf: flow(row.CitationFlow) }
        : { tf: null, cf: null },
    );
  }
  return metrics;
}

/** Trust Flow and Citation Flow from Majestic's fresh index (`cmd=GetIndexItemInfo`). */
export class MajesticClient {
  readonly #agent: Agent;

  constructor(private readonly options: MajesticClientOptions) {
    this.#agent = enrichmentAgent(options.timeoutMs);
  }

  async flowMetrics(domains: readonly string[]): Promise<Map<string, FlowMetrics>> {
    if (domains.length > MAJESTIC_BATCH) throw new RangeError(`at most ${MAJESTIC_BATCH} items per call`);
    const params = new URLSearchParams({
      app_api_key: this.options.apiKey,
      cmd: 'GetIndexItemInfo',
      items: String(domains.length),
      datasource: 'fresh',
    });
    for (const [index, domain] of domains.entries()) params.set(`item${index}`, domain);
    const url = new URL(this.options.url);
    url.search = params.toString();
    return parseIndexItemInfo(await requestJson('majestic', this.#agent, url.toString()), domains);
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}
