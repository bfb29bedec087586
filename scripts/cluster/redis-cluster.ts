import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freeLoopbackPort } from '@repo/server-kit/testing';

const run = promisify(execFile);
const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';

export interface ClusterNode {
  port: number;
  process: ChildProcess;
}

/** A Redis Cluster of 3 masters, each with one replica, without persistence, on loopback. */
export interface RedisClusterWithReplicas {
  urls: string[];
  nodes: ClusterNode[];
  /** The port of the master that holds `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /** Waits until every live node reports cluster_state:ok and `port` is no longer a master any node knows. */
  waitForFailover(port: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts six redis-servers in cluster mode (as packages/server-kit/src/testing/redis-servers.ts
 * does for three) and joins them with `redis-cli --cluster create --cluster-replicas 1`, so a
 * killed master is replaced by its replica after `cluster-node-timeout`.
 */
export async function startRedisClusterWithReplicas(dir: string): Promise<RedisClusterWithReplicas> {
  const nodes: ClusterNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => stopProcess(node.process)));
  };
  try {
    for (let i = 0; i < 6; i++) {
      const port = await freeLoopbackPort({ partnerOffset: 10_000 });
      const nodeDir = path.join(dir, `redis-${port}`);
      mkdirSync(nodeDir, { recursive: true });
      const child = spawn(
        REDIS_SERVER,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          nodeDir,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '2000',
        ],
        { stdio: 'ignore' },
      );
      nodes.push({ port, process: child });
    }
    for (const node of nodes) await waitForPing(node.port);
    await run(REDIS_CLI, [
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    for (const node of nodes) await waitForClusterOk(node.port, () => true);
  } catch (error) {
    await stop();
    throw error;
  }
  const live = () => nodes.filter((node) => node.process.exitCode === null && node.process.signalCode === null);
  return {
    urls: nodes.slice(0, 3).map((node) => `redis://127.0.0.1:${node.port}`),
    nodes,
    async masterOf(key) {
      const asked = live()[0]!.port;
      const slot = Number((await cli(asked, 'cluster', 'keyslot', key)).trim());
      const nodesText = await cli(asked, 'cluster', 'nodes');
      for (const line of nodesText.split('\n')) {
        const [, address, flags, , , , , state, ...ranges] = line.split(' ');
        if (!flags?.includes('master') || flags.includes('fail') || state !== 'connected') continue;
        for (const range of ranges) {
          const [from, to = from] = range.split('-').map(Number);
          if (slot >= from! && slot <= to!) return Number(address!.split(':')[1]!.split('@')[0]);
        }
      }
      throw new Error(`No master holds slot ${slot}`);
    },
    async waitForFailover(port) {
      // Not the killed node itself: its exit may not have been noticed yet.
      for (const node of live().filter((candidate) => candidate.port !== port)) {
        await waitForClusterOk(node.port, (nodesText) =>
          nodesText
            .split('\n')
            .filter((line) => line.includes(`:${port}@`))
            .every((line) => !line.split(' ')[2]!.includes('master') || line.includes('fail')),
        );
      }
    },
    stop,
  };
}

const cli = async (port: number, ...args: string[]) => (await run(REDIS_CLI, ['-p', String(port), ...args])).stdout;

async function waitForPing(port: number): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await cli(port, 'ping')).trim() === 'PONG') return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`redis-server on port ${port} did not answer`);
}

/** Until the node says cluster_state:ok and its view of the nodes satisfies `settled` (bounded: 6000 looks). */
async function waitForClusterOk(port: number, settled: (nodesText: string) => boolean): Promise<void> {
  for (let attempt = 0; attempt < 6000; attempt++) {
    const info = await cli(port, 'cluster', 'info').catch(() => '');
    if (/cluster_state:ok/.test(info) && settled(await cli(port, 'cluster', 'nodes').catch(() => ''))) return;
    await sleep(50);
  }
  throw new Error(`The Redis Cluster node on port ${port} never settled`);
}

export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
