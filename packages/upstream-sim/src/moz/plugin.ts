import type { FastifyInstance } from 'fastify';
import { webFacts } from '../churn/web-facts.ts';
import type { SimWorld } from '../world.ts';

export const SIM_MOZ_TOKEN = 'sim-moz-token';

export interface MozSimOptions {
  world: SimWorld;
  token?: string;
  stats: { requests: number };
}

/**
 * Moz Links API v2 `POST /v2/url_metrics`: `x-moz-token` header, JSON body `{"targets": [...]}`
 * (1-50), answer `{"results": [...]}` with one result per target in order. Names Moz has no
 * data for come back without `domain_authority`.
 */
export async function mozSimPlugin(app: FastifyInstance, options: MozSimOptions): Promise<void> {
  const token = options.token ?? SIM_MOZ_TOKEN;
  app.post('/v2/url_metrics', async (request, reply) => {
    options.stats.requests += 1;
    if (request.headers['x-moz-token'] !== token) {
      reply.status(401);
      return { name: 'Unauthorized', message: 'Missing or invalid x-moz-token' };
    }
    const targets = (request.body as { targets?: unknown } | null)?.targets;
    if (
      !Array.isArray(targets) ||
      targets.length === 0 ||
      targets.length > 50 ||
      !targets.every((t) => typeof t === 'string')
    ) {
      reply.status(400);
      return { name: 'Bad Request', message: 'targets must be an array of 1 to 50 strings' };
    }
    return {
      results: (targets as string[]).map((target) => {
        const host = target
          .toLowerCase()
          .replace(/^[a-z]+:\/\//, '')
          .replace(/^www\./, '')
          .split('/')[0]!;
        const da = webFacts(app.world, host)?.da;
        return {
          page: `${host}/`,
          subdomain: host,
          root_domain: host,
          title: '',
          last_crawled: new Date(app.world.now()).toISOString().slice(0, 10),
          http_code: da === undefined ? 0 : 200,
          ...(da === undefined
            ? {}
            : {
                domain_authority: da,
                page_authority: Math.max(1, da - 5),
                spam_score: 1,
                root_domains_to_root_domain: da * 7,
              }),
        };
      }),
    };
  });
}
