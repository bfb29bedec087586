import type { FastifyInstance } from 'fastify';
import { webFacts } from '../churn/web-facts.ts';
import type { SimWorld } from '../world.ts';

export const SIM_MAJESTIC_KEY = 'sim-majestic-key';

export interface MajesticSimOptions {
  world: SimWorld;
  apiKey?: string;
  stats: { requests: number };
}

const envelope = (code: string, message: string) => ({ Code: code, ErrorMessage: message, FullError: message });

/**
 * Majestic JSON API `GET /api/json?app_api_key=…&cmd=GetIndexItemInfo&items=N&item0=…&datasource=fresh`.
 * Errors come back with HTTP 200 and a `Code` other than OK, like the real API.
 */
export async function majesticSimPlugin(app: FastifyInstance, options: MajesticSimOptions): Promise<void> {
  const apiKey = options.apiKey ?? SIM_MAJESTIC_KEY;
  app.get('/api/json', async (request) => {
    options.stats.requests += 1;
    const query = request.query as Record<string, string | undefined>;
    if (query.app_api_key !== apiKey) return envelope('InvalidAPIKey', 'The API key is not valid');
    if (query.cmd !== 'GetIndexItemInfo') return envelope('UnknownCommand', `Unknown command ${query.cmd}`);
    const items = Number(query.items);
    if (!Number.isInteger(items) || items < 1 || items > 100) {
      return envelope('InvalidParameters', 'items must be from 1 to 100');
    }
    const data = [];
    for (let index = 0; index < items; index += 1) {
      const item = query[`item${index}`];
      if (item === undefined) return envelope('InvalidParameters', `item${index} is missing`);
      const facts = webFacts(app.world, item.toLowerCase());
      data.push({
        ItemNum: index,
        Item: item,
        ResultCode: 'OK',
        Status: facts?.tf === undefined ? 'NotFound' : 'Found',
        ItemType: 1,
        ExtBackLinks: (facts?.cf ?? 0) * 113,
        RefDomains: (facts?.cf ?? 0) * 9,
        TrustFlow: facts?.tf ?? 0,
        CitationFlow: facts?.cf ?? 0,
        TrustMetric: facts?.tf ?? 0,
      });
    }
    return {
      ...envelope('OK', ''),
      IndexType: query.datasource === 'historic' ? 0 : 1,
      IndexBuildDate: new Date(app.world.now()).toISOString().slice(0, 19).replace('T', ' '),
      DataTables: {
        Results: { Headers: { Count: data.length, Index: 0, ItemsType: 1 }, Data: data },
      },
    };
  });
}
