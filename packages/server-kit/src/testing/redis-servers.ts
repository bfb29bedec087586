import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freeLoopbackPort } from './free-port.ts';

const run = promisify(execFile);
const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';

/** Why Debian's redis-server cannot be started here, or false when it can. */
export function redisServerSkip(): string | false {
  return existsSync(REDIS_SERVER) && existsSync(REDIS_CLI) ? false : 'redis-server is not installed';
}

/** A redis-server of a test's own on a loopback port, without persistence. */
export interface OwnRedis {
  port: number;
  url: string;
  /** Stops it (SIGKILL) and starts it again on the same port: it comes back empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A Redis Cluster of a test's own: three masters on loopback ports, no replicas, no persistence. */
export interface OwnRedisCluster {
  urls: string[];
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
const dirs = new Set<string>();
// Whatever way the test process ends normally, its servers go with it.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function startProcess(port: number, dir: string, extra: string[]): ChildProcess {
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra],
    { stdio: 'ignore' },
  );
  child.unref();
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

async function waitForPing(port: number): Promise<void> {
  const client = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {}); // refused until the server listens: expected, retried below
  try {
    for (let attempt = 0; attempt < 600; attempt++) {
      try {
        if (client.status !== 'ready') await client.connect();
        if ((await client.ping()) === 'PONG') return;
      } catch {
        client.disconnect();
        await sleep(50);
      }
    }
    throw new Error(`redis-server on port ${port} did not answer`);
  } finally {
    client.disconnect();
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Starts a redis-server on a free loopback port, without persistence (a restart empties it). */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freeLoopbackPort({ partnerOffset: 10_000 });
  const dir = mkdtempSync(path.join(tmpdir(), 'own-redis-'));
  dirs.add(dir);
  let child = startProcess(port, dir, []);
  await waitForPing(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await stopProcess(child);
      child = startProcess(port, dir, []);
      await waitForPing(port);
    },
    async stop() {
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
      dirs.delete(dir);
    },
  };
}

/**
 * Starts a Redis Cluster: `masters` redis-servers in cluster mode on free loopback ports, joined
 * by `redis-cli --cluster create`, ready once every node reports `cluster_state:ok`.
 */
export async function startOwnRedisCluster(masters = 3): Promise<OwnRedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'own-redis-cluster-'));
  dirs.add(dir);
  const nodes: Array<{ port: number; child: ChildProcess }> = [];
  for (let i = 0; i < masters; i++) {
    const port = await freeLoopbackPort({ partnerOffset: 10_000 });
    const nodeDir = path.join(dir, String(port));
    await run('mkdir', ['-p', nodeDir]);
    const child = startProcess(port, nodeDir, [
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      'nodes.conf',
      '--cluster-node-timeout',
      '2000',
    ]);
    nodes.push({ port, child });
  }
  const stop = async () => {
    await Promise.all(nodes.map((node) => stopProcess(node.child)));
    rmSync(dir, { recursive: true, force: true });
    dirs.delete(dir);
  };
  try {
    for (const node of nodes) await waitForPing(node.port);
    await run(REDIS_CLI, [
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const node of nodes) await waitForClusterOk(node.port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: nodes.map((node) => `redis://127.0.0.1:${node.port}`), stop };
}

async function waitForClusterOk(port: number): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { stdout } = await run(REDIS_CLI, ['-p', String(port), 'cluster', 'info']);
    if (/cluster_state:ok/.test(stdout)) return;
    await sleep(50);
  }
  throw new Error(`The Redis Cluster node on port ${port} never reported cluster_state:ok`);
}
