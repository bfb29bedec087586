/**
 * The scaled-out system on one machine (`npm run cluster`, and the fault test): HAProxy in front
 * of 3 Domain Intelligence and 3 social platform API instances, 2 BullMQ job workers, the local
 * PostgreSQL (two schemas of this run's own) and a Redis Cluster of 3 masters with a replica
 * each, the upstream simulator playing every upstream. Every port is picked free at start;
 * stop() ends every process it started and removes the schemas and the temporary directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freeLoopbackPort } from '@repo/server-kit/testing';
import {
  randomLabel,
  renderZoneFile,
  type SimWorld,
  seededRandom,
  startUpstreamSim,
  type UpstreamSim,
} from '@repo/upstream-sim';
import { simulatorEnv } from 'domain-intel/demo/simulator-env.ts';
import pg from 'pg';
import { startHaproxy } from './haproxy.ts';
import { type RedisClusterWithReplicas, startRedisClusterWithReplicas, stopProcess } from './redis-cluster.ts';

const root = path.resolve(import.meta.dirname, '../..');
const DOMAIN_INTEL_CLI = path.join(root, 'apps/domain-intel/src/cli.ts');
const PLATFORM_CLI = path.join(root, 'apps/social-platform/src/cli.ts');
const DAY_MS = 86_400_000;

export interface TopologyOptions {
  world: SimWorld;
  /** Names registered in `.com` before the first snapshot (the daily run's size). */
  names: number;
  /** Where the services' logs go (a line per process start is printed here too). */
  log?: (line: string) => void;
}

/** The bearer token of the Domain Intelligence instances' /metrics in this topology. */
export const METRICS_TOKEN = 'cluster-topology-metrics';

export interface ServiceProcess {
  role: 'domain-intel' | 'platform' | 'worker' | 'haproxy';
  name: string;
  port: number | null;
  child: ChildProcess;
}

export interface Topology {
  /** HAProxy's frontends. */
  domainIntelUrl: string;
  platformUrl: string;
  processes: ServiceProcess[];
  redis: RedisClusterWithReplicas;
  sim: UpstreamSim;
  /** A connection to this run's PostgreSQL, searching the Domain Intelligence schema. */
  db: pg.Client;
  schemas: { domainIntel: string; platform: string };
  dir: string;
  haproxyLog: string;
  /** The environment of the Domain Intelligence processes (for a CLI command run against this topology). */
  domainIntelEnv: NodeJS.ProcessEnv;
  /** Runs `domain-intel <args>` against this topology and answers its stdout (throws on a non-zero exit). */
  domainIntelCli(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const log = options.log ?? (() => {});
  const dir = mkdtempSync(path.join(tmpdir(), 'cluster-topology-'));
  const run = randomBytes(4).toString('hex');
  const schemas = { domainIntel: `cluster_${run}_di`, platform: `cluster_${run}_sp` };
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const processes: ServiceProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`cleanup: ${error}`));
    cleanups.length = 0;
    rmSync(dir, { recursive: true, force: true });
  };

  // Should this process end without stop() (an uncaught error, a test runner's kill), nothing it started stays.
  let redisNodes: RedisClusterWithReplicas['nodes'] | undefined;
  const children = () => [...processes.map((entry) => entry.child), ...(redisNodes?.map((node) => node.process) ?? [])];
  const killOnExit = () => {
    for (const child of children()) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  cleanups.push(async () => {
    process.off('exit', killOnExit);
  });

  try {
    seedWorld(options.world, options.names);
    const sim = await startUpstreamSim({ world: options.world, host: '127.0.0.1', port: 0 });
    cleanups.push(() => sim.close());
    log(`upstream simulator on ${sim.url}`);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    cleanups.push(async () => {
      // Only this run's own schemas: the database is shared with every other test and engineer.
      for (const schema of Object.values(schemas)) await db.query(`drop schema if exists ${schema} cascade`);
      await db.end();
    });
    await db.query(`set search_path to ${schemas.domainIntel}`);

    const redis = await startRedisClusterWithReplicas(dir);
    redisNodes = redis.nodes;
    cleanups.push(() => redis.stop());
    log(`Redis Cluster: masters ${redis.urls.join(', ')}, each with a replica`);

    const [domainIntelListen, platformListen] = [await freeLoopbackPort(), await freeLoopbackPort()];
    const domainIntelUrl = `http://127.0.0.1:${domainIntelListen}`;
    const platformUrl = `http://127.0.0.1:${platformListen}`;
    const shared = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      DATABASE_URL: databaseUrl,
      REDIS_CLUSTER_URLS: redis.urls.join(','),
      TRUST_PROXY: '1',
    };
    const domainIntelEnv: NodeJS.ProcessEnv = {
      ...shared,
      ...(await simulatorEnv(sim)),
      POSTGRES_SCHEMA: schemas.domainIntel,
      DATA_DIR: path.join(dir, 'domain-intel-data'),
      PUBLIC_URL: domainIntelUrl,
      DASHBOARD_COOKIE_SECRET: randomBytes(32).toString('hex'),
      TRACKED_TLDS: 'com',
      // HAProxy sets it on every call (scripts/cluster/haproxy.ts): a re-sent call is counted once.
      QUOTA_REQUEST_ID_HEADER: 'x-request-id',
      // The fault test reads each instance's quota_repeated_calls_total.
      METRICS_TOKEN: METRICS_TOKEN,
      // The politeness limits that protect the real upstreams would only slow the local simulator.
      RDAP_HOST_RATE_PER_SECOND: '500',
      WHOIS_HOST_RATE_PER_SECOND: '500',
      WAYBACK_REQUESTS_PER_MINUTE: '6000',
    };
    const platformEnv: NodeJS.ProcessEnv = {
      ...shared,
      POSTGRES_SCHEMA: schemas.platform,
      DATA_DIR: path.join(dir, 'platform-data'),
      PUBLIC_URL: platformUrl,
    };

    const domainIntelCli = (args: string[]) => runCli(DOMAIN_INTEL_CLI, args, domainIntelEnv);
    // Once, before any instance starts: the instances would otherwise all migrate at once.
    await domainIntelCli(['migrate']);
    await runCli(PLATFORM_CLI, ['migrate'], platformEnv);
    // Yesterday's zone, so the first daily run the workers take has a diff to apply. Imported from a
    // file rather than downloaded: CZDS allows one download per 24 h, which must be the daily run's.
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    const zoneFile = path.join(dir, `com-${yesterday}.zone`);
    writeFileSync(zoneFile, renderZoneFile(options.world, 'com', yesterday));
    await domainIntelCli(['zones', 'import', '--tld', 'com', '--file', zoneFile, '--date', yesterday]);
    log(`PostgreSQL schemas ${schemas.domainIntel} and ${schemas.platform}; yesterday's .com snapshot imported`);

    const start = async (role: ServiceProcess['role'], index: number) => {
      const port = role === 'worker' ? null : await freeLoopbackPort();
      const [cli, env] = role === 'platform' ? [PLATFORM_CLI, platformEnv] : [DOMAIN_INTEL_CLI, domainIntelEnv];
      const name = `${role}-${index}`;
      const child = spawn(process.execPath, ['--import', 'tsx', cli, role === 'worker' ? 'worker' : 'serve'], {
        cwd: root,
        env: { ...env, ...(port ? { HOST: '127.0.0.1', PORT: String(port) } : {}) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out = createWriteStream(path.join(dir, `${name}.log`));
      child.stdout!.pipe(out);
      child.stderr!.pipe(out);
      const entry: ServiceProcess = { role, name, port, child };
      processes.push(entry);
      return entry;
    };
    cleanups.push(async () => {
      // SIGTERM lets each finish what it holds; whatever is still running after that is killed.
      await Promise.all(
        processes.map(async (entry) => {
          const stopped = stopProcess(entry.child, 'SIGTERM');
          if ((await Promise.race([stopped.then(() => true), sleep(15_000).then(() => false)])) === false) {
            await stopProcess(entry.child);
          }
        }),
      );
    });
    for (let i = 1; i <= 3; i++) await start('domain-intel', i);
    for (let i = 1; i <= 3; i++) await start('platform', i);
    for (let i = 1; i <= 2; i++) await start('worker', i);
    for (const entry of processes) if (entry.port) await waitForHealth(`http://127.0.0.1:${entry.port}`, entry);

    const haproxyLog = path.join(dir, 'haproxy.log');
    const haproxy = startHaproxy(
      dir,
      [
        { name: 'domain_intel', listen: domainIntelListen, servers: ports(processes, 'domain-intel') },
        { name: 'platform', listen: platformListen, servers: ports(processes, 'platform') },
      ],
      haproxyLog,
    );
    processes.push({ role: 'haproxy', name: 'haproxy', port: null, child: haproxy });
    cleanups.push(() => stopProcess(haproxy, 'SIGTERM'));
    await waitForHealth(domainIntelUrl, { name: 'haproxy', child: haproxy });
    await waitForHealth(platformUrl, { name: 'haproxy', child: haproxy });
    log(`HAProxy: Domain Intelligence ${domainIntelUrl}, social platform ${platformUrl}`);

    return {
      domainIntelUrl,
      platformUrl,
      processes,
      redis,
      sim,
      db,
      schemas,
      dir,
      haproxyLog,
      domainIntelEnv,
      domainIntelCli,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

const ports = (processes: ServiceProcess[], role: ServiceProcess['role']) =>
  processes.filter((entry) => entry.role === role).map((entry) => entry.port!);

/** `names` registered .com names with seeded labels (the same world every run). */
function seedWorld(world: SimWorld, names: number): void {
  const random = seededRandom(35);
  for (let i = 0; world.domains.size < names && i < names * 4; i++) {
    const name = `${randomLabel(random)}${i}.com`;
    world.register(name);
  }
}

async function waitForHealth(url: string, of: { name: string; child: ChildProcess }): Promise<void> {
  // Bounded by looks, not by time: a loaded machine only takes longer.
  for (let attempt = 0; attempt < 3000; attempt++) {
    if (of.child.exitCode !== null) throw new Error(`${of.name} exited with ${of.child.exitCode}`);
    const status = await fetch(`${url}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(100);
  }
  throw new Error(`${of.name} never answered /healthz at ${url}`);
}

function runCli(cli: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${path.basename(cli)} ${args.join(' ')}: ${code}\n${stderr}`)),
    );
  });
}
