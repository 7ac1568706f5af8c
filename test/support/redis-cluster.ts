import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);
const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));
const REDIS_CLI = ['/usr/bin/redis-cli', '/usr/local/bin/redis-cli'].find((p) => existsSync(p));

/** One redis-server of the cluster. */
export interface ClusterNode {
  readonly port: number;
  /** The process, for a SIGKILL. */
  readonly child: ChildProcess;
}

/** A real Redis Cluster on 127.0.0.1: three masters, three replicas, data in a tmp dir, owned by the test. */
export interface RedisCluster {
  /** The six nodes, for ioredis's `new Cluster(seeds)`. */
  readonly seeds: ReadonlyArray<{ host: string; port: number }>;
  readonly nodes: readonly ClusterNode[];
  /** `redis-cli -p <port> <args>` of one node; its output. */
  cli(port: number, ...args: string[]): Promise<string>;
  /** The port of the master that serves `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /**
   * SIGKILLs the master serving `key`'s slot and resolves once its replica took over (every
   * surviving node reports `cluster_state:ok` and names a live master for the slot): the new
   * master's port.
   */
  failMasterOf(key: string): Promise<{ killed: number; promoted: number }>;
  stop(): Promise<void>;
}

/** Redis's `cluster-node-timeout` here: how long a master must be silent before its replica is promoted. */
export const CLUSTER_NODE_TIMEOUT_MS = 1000;

/**
 * Starts six `redis-server --cluster-enabled yes` on free ports, joins them with
 * `redis-cli --cluster create ... --cluster-replicas 1 --cluster-yes` and waits until every node
 * reports `cluster_state:ok`. A port is only free until a node binds it: when another process took
 * one of them first (a node exits, or the process answering is not ours), the start is tried again on
 * fresh ports, three times at most.
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  if (!REDIS_SERVER || !REDIS_CLI)
    throw new Error('redis-server / redis-cli missing: run scripts/ensure-test-servers.sh');
  const failures: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const started = await launchCluster(REDIS_SERVER, REDIS_CLI).catch((error: Error) => {
      failures.push(`attempt ${attempt}: ${error.message}`);
      return undefined;
    });
    if (started) return started;
  }
  throw new Error(`the Redis Cluster did not start:\n${failures.join('\n')}`);
}

/** Six ports whose cluster bus port (port + 10000) is free too. */
async function clusterPorts(): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < 6) {
    const port = await freePort();
    if (port < 55_535 && !ports.includes(port) && (await canListen(port + 10_000))) ports.push(port);
  }
  return ports;
}

async function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function launchCluster(redisServer: string, redisCli: string): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'mocapi-cluster-'));
  const ports = await clusterPorts();
  const nodes: ClusterNode[] = ports.map((port) => {
    const child = spawn(
      redisServer,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        String(CLUSTER_NODE_TIMEOUT_MS),
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        // A replica that never finished its first sync may not take over: sync at once.
        '--repl-diskless-sync-delay',
        '0',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    return { port, child };
  });
  const cli = async (port: number, ...args: string[]) =>
    (await run(redisCli, ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout;
  const alive = (node: ClusterNode) => node.child.exitCode === null && node.child.signalCode === null;
  const stop = async () => {
    await Promise.all(
      nodes.filter(alive).map((node) => {
        const exited = new Promise((resolve) => node.child.once('exit', resolve));
        node.child.kill('SIGKILL');
        return exited;
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const node of nodes) {
      // The server answering on the port must be this node's own process, not one that took the port first.
      const pid = async () => /process_id:(\d+)/.exec(await cli(node.port, 'INFO', 'server').catch(() => ''))?.[1];
      for (let attempt = 0; (await pid()) !== String(node.child.pid); attempt++) {
        if (!alive(node)) throw new Error(`cluster node ${node.port} exited (its port or bus port was taken)`);
        if (attempt > 100) throw new Error(`cluster node ${node.port} did not start`);
        await delay(50);
      }
    }
    await run(redisCli, [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]).catch((error: Error & { stdout?: string }) => {
      // redis-cli prints its [ERR] lines on stdout: keep them in the error.
      throw new Error(`${error.message}\n${error.stdout ?? ''}`.trim());
    });
    await waitUntil(
      async () => {
        const states = await Promise.all(ports.map((port) => cli(port, 'CLUSTER', 'INFO').catch(() => '')));
        return states.every((info) => info.includes('cluster_state:ok'));
      },
      20_000,
      'the cluster did not reach cluster_state:ok',
    );
    await waitUntil(
      async () => {
        const replication = await Promise.all(ports.map((port) => cli(port, 'INFO', 'replication').catch(() => '')));
        const online = replication.filter((info) => /slave0:.*state=online/.test(info)).length;
        return online === 3;
      },
      20_000,
      'the replicas did not finish their first sync',
    );
  } catch (error) {
    await stop();
    throw error;
  }

  const liveNodes = () => nodes.filter(alive);
  const masterOf = async (key: string): Promise<number> => {
    const [from] = liveNodes();
    const slot = Number((await cli(from!.port, 'CLUSTER', 'KEYSLOT', key)).trim());
    return ownerOf(await cli(from!.port, 'CLUSTER', 'NODES'), slot);
  };
  return {
    seeds: ports.map((port) => ({ host: '127.0.0.1', port })),
    nodes,
    cli,
    masterOf,
    async failMasterOf(key) {
      const killed = await masterOf(key);
      const node = nodes.find((n) => n.port === killed)!;
      const exited = new Promise((resolve) => node.child.once('exit', resolve));
      node.child.kill('SIGKILL');
      await exited;
      let promoted = killed;
      await waitUntil(
        async () => {
          const survivors = liveNodes();
          const states = await Promise.all(survivors.map((n) => cli(n.port, 'CLUSTER', 'INFO').catch(() => '')));
          if (!states.every((info) => info.includes('cluster_state:ok'))) return false;
          promoted = await masterOf(key).catch(() => killed);
          return promoted !== killed;
        },
        30_000,
        `no replica took over from master ${killed}`,
      );
      return { killed, promoted };
    },
    stop,
  };
}

/**
 * The port of the live master serving `slot`, from `CLUSTER NODES` ("<id> <host:port@bus> <flags>
 * <master> <ping> <pong> <epoch> <link> <slot ranges...>" per line).
 */
function ownerOf(text: string, slot: number): number {
  for (const line of text.split('\n')) {
    const [, address, flags, , , , , , ...ranges] = line.trim().split(' ');
    if (!address || !flags?.split(',').includes('master') || flags.includes('fail')) continue;
    for (const range of ranges) {
      const [start, end = start] = range.split('-').map(Number);
      if (start !== undefined && end !== undefined && slot >= start && slot <= end) {
        return Number(/:(\d+)@/.exec(address)?.[1]);
      }
    }
  }
  throw new Error(`no live master for slot ${slot} in:\n${text}`);
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message);
    await delay(100);
  }
}
