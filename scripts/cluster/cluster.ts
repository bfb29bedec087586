/**
 * `npm run cluster`: the scaled-out topology on this machine (see topology.ts), until Ctrl+C,
 * which stops every process it started and removes its schemas, Redis nodes and files.
 * CLUSTER_NAMES: how many .com names the simulated zone holds (default 20,000).
 */
import { SimWorld } from '@repo/upstream-sim';
import { haproxySkip } from './haproxy.ts';
import { startTopology } from './topology.ts';

const missing = haproxySkip();
if (missing) {
  process.stderr.write(`npm run cluster: ${missing} (apt-get install haproxy redis-server)\n`);
  process.exit(2);
}
const log = (line: string) => process.stdout.write(`${line}\n`);
let stopping = false;
const topology = await startTopology({
  world: new SimWorld(),
  names: Number(process.env.CLUSTER_NAMES ?? 20_000),
  log,
});
const stop = async () => {
  if (stopping) return;
  stopping = true;
  log('Stopping: services, HAProxy, Redis Cluster, then the schemas and files of this run…');
  await topology.stop();
  log('Stopped; nothing of this run is left.');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

log(
  [
    '',
    `Domain Intelligence (HAProxy → 3 instances): ${topology.domainIntelUrl}`,
    `Social platform     (HAProxy → 3 instances): ${topology.platformUrl}`,
    `Job workers: ${topology.processes.filter((entry) => entry.role === 'worker').length} (BullMQ on the Redis Cluster)`,
    `Instances: ${topology.processes
      .filter((entry) => entry.port)
      .map((entry) => `${entry.name} :${entry.port}`)
      .join(', ')}`,
    `Logs (removed at stop): ${topology.dir}`,
    'A key: npx domain-intel keys create --plan starter (with the environment printed by LOG_ENV=1)',
    'Ctrl+C stops everything.',
  ].join('\n'),
);
if (process.env.LOG_ENV === '1') {
  for (const [name, value] of Object.entries(topology.domainIntelEnv)) log(`${name}=${value}`);
}
