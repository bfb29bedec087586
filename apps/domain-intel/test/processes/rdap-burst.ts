// A separate process for the shared-limit test: one RdapHttp, as an API instance or worker
// builds it, sharing its per-host limits through Redis, fires COUNT lookups at TARGET at once
// and prints how many got an answer. Env: REDIS_URL or REDIS_CLUSTER_URLS, KEY_PREFIX, TARGET, RATE, COUNT.
import { connectRedis, createRedis } from '@repo/server-kit';
import { HostRates } from '../../src/rdap/host-rates.ts';
import { sharedRdapHttp } from '../shared-rdap-http.ts';

const redis = await connectRedis(
  createRedis({
    url: process.env.REDIS_URL,
    clusterUrls: process.env.REDIS_CLUSTER_URLS?.split(','),
    keyPrefix: process.env.KEY_PREFIX!,
  }),
);
const rates = new HostRates(Number(process.env.RATE));
const { http } = sharedRdapHttp(redis, rates, { maxRetries: 0, maxRetryWaitMs: 0 });
const outcomes = await Promise.all(
  Array.from({ length: Number(process.env.COUNT) }, (_, i) =>
    http.getJson(`${process.env.TARGET}/domain/name${i}.com`, 120_000, 'background'),
  ),
);
process.stdout.write(`${JSON.stringify({ ok: outcomes.filter((outcome) => outcome.kind === 'ok').length })}\n`);
await http.close();
redis.disconnect();
