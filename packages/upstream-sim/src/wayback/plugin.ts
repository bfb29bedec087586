import type { FastifyInstance } from 'fastify';
import { webFacts } from '../churn/web-facts.ts';
import type { SimWorld } from '../world.ts';

const YEAR = 365 * 86_400_000;
const FIELDS = ['urlkey', 'timestamp', 'original', 'mimetype', 'statuscode', 'digest', 'length'] as const;

export interface WaybackSimOptions {
  world: SimWorld;
  /** Counts requests (tests check the rate limit and the cache). */
  stats: { requests: number };
}

const cdxTimestamp = (time: number) => new Date(time).toISOString().replace(/\D/g, '').slice(0, 14);

/** `https://www.Example.com/path` → `example.com` (the host part the CDX server keys on). */
function hostOf(url: string): string {
  return url
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .split(/[/:?#]/)[0]!;
}

/**
 * The Wayback Machine CDX server API (https://github.com/internetarchive/wayback/tree/master/wayback-cdx-server):
 * `url`, `matchType` (exact, prefix, host, domain), `from`/`to` (timestamp prefixes),
 * `fl` (field list), `limit`, `output=json` (array of arrays, header row first; `[]` when
 * empty) or the default space-separated text. Captures of a home page are made once a year
 * from the world's `firstArchivedAt`, oldest first.
 */
export async function waybackSimPlugin(app: FastifyInstance, options: WaybackSimOptions): Promise<void> {
  app.get('/cdx/search/cdx', async (request, reply) => {
    options.stats.requests += 1;
    const query = request.query as Record<string, string | undefined>;
    if (!query.url) {
      reply.status(400).type('text/plain');
      return 'Request must include a url= parameter';
    }
    const host = hostOf(query.url);
    const fields = query.fl ? query.fl.split(',') : [...FIELDS];
    const unknown = fields.filter((field) => !(FIELDS as readonly string[]).includes(field));
    if (unknown.length > 0) {
      reply.status(400).type('text/plain');
      return `Unknown field: ${unknown[0]}`;
    }
    const limit = query.limit ? Number.parseInt(query.limit, 10) : Number.POSITIVE_INFINITY;
    const from = query.from ? query.from.padEnd(14, '0') : '';
    const to = query.to ? query.to.padEnd(14, '9') : '99999999999999';

    const first = webFacts(app.world, host)?.firstArchivedAt;
    const rows: string[][] = [];
    if (first !== undefined) {
      const urlkey = `${host.split('.').reverse().join(',')})/`;
      for (let time = first; time <= app.world.now() && rows.length < limit; time += YEAR) {
        const timestamp = cdxTimestamp(time);
        if (timestamp < from || timestamp > to) continue;
        const capture: Record<(typeof FIELDS)[number], string> = {
          urlkey,
          timestamp,
          original: `http://${host}/`,
          mimetype: 'text/html',
          statuscode: '200',
          digest: `SIM${timestamp}`,
          length: '2048',
        };
        rows.push(fields.map((field) => capture[field as (typeof FIELDS)[number]]));
      }
    }
    if (query.output === 'json') {
      reply.type('application/json');
      return JSON.stringify(rows.length === 0 ? [] : [fields, ...rows]);
    }
    reply.type('text/plain');
    return rows.map((row) => `${row.join(' ')}\n`).join('');
  });
}
