import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { call, result } from '../tasks/tasks-wire.js';
import type { QueueNodeSettings } from './queue-node.js';

/**
 * A node killed between a task handler's side effect and the task's ending: the queue runs the
 * task again from the top on the other node, and the effect, keyed by McpTaskContext.operationId
 * (the same in both runs), happens once. Two nodes (child processes) on one redis-server, BullMQ.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = [
  '--import',
  fileURLToPath(new URL('../stdio/swc-register.mjs', import.meta.url)),
  fileURLToPath(new URL('./queue-node.ts', import.meta.url)),
];

interface Node {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
}

const PREFIX = `idem-death-${process.pid}-${Date.now()}`;
let redis: RedisServer;
const nodes: Node[] = [];

async function startNode(name: string): Promise<Node> {
  const settings: QueueNodeSettings = { name, redisUrl: redis.url, prefix: PREFIX };
  const child = spawn(process.execPath, ENTRY, {
    cwd: ROOT,
    env: { ...process.env, MOCAPI_IDEM_NODE: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const port = await until(
    `${name} listening`,
    () => /READY (\d+)/.exec(output)?.[1],
    60_000,
    () => output,
  );
  return { name, url: `http://127.0.0.1:${port}/mcp`, child, output: () => output };
}

async function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  ms: number,
  show = () => '',
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms\n${show()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const lines = (prefix: string) =>
  nodes.flatMap((n) => n.output().split('\n')).filter((line) => line.startsWith(prefix));

beforeAll(async () => {
  redis = await startRedis();
  nodes.push(...(await Promise.all([startNode('node-1'), startNode('node-2')])));
}, 120_000);

afterAll(async () => {
  for (const node of nodes) node.child.kill('SIGKILL');
  await redis?.stop();
  rmSync(join(tmpdir(), `mocapi-idem-${PREFIX}-order-1`), { force: true });
});

it('a node killed between the effect and the ending: the task completes on the other node, the effect happened once', async () => {
  const label = 'order-1';
  const created = result(await call(nodes[0]!.url, 'tools/call', { name: 'book_then_hang', arguments: { label } }));
  const hanging = await until(
    'a node hanging after the effect',
    () => nodes.find((n) => n.output().includes(`HANGING ${label} `)),
    30_000,
    () => nodes.map((n) => n.output()).join('\n'),
  );
  hanging.child.kill('SIGKILL');
  const survivor = nodes.find((n) => n !== hanging)!;
  const done = await until(
    'the task completed on the other node',
    async () => {
      const task = result(await call(survivor.url, 'tasks/get', { taskId: created.taskId }));
      return task.status === 'completed' ? task : undefined;
    },
    40_000,
    () => nodes.map((n) => n.output()).join('\n'),
  );
  expect(done.result.content[0].text).toBe(`booked ${label}`);

  // Two runs, one key: the task's id in both.
  expect(lines(`BEGIN ${label} `)).toEqual([`BEGIN ${label} ${created.taskId}`, `BEGIN ${label} ${created.taskId}`]);
  expect(lines(`EFFECT ${label} `)).toEqual([`EFFECT ${label} ${hanging.name}`]);
  const ledger = new Redis(redis.url);
  try {
    expect(await ledger.hgetall(`${PREFIX}:ledger`)).toEqual({ [created.taskId]: label });
  } finally {
    ledger.disconnect();
  }
}, 90_000);
