import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { Cluster, Redis } from 'ioredis';
import {
  ElicitationContext,
  type McpExchange,
  McpModule,
  McpProgressReporter,
  McpRegistrar,
  McpResource,
  McpTaskContext,
  McpTool,
} from '../../src/index.js';
import { McpRedisConnection } from '../../src/redis/mcp-redis-connection.js';
import { McpRedisModule, RedisThrottlerStorage } from '../../src/redis/index.js';
import { McpThrottlerModule } from '../../src/throttler/index.js';
import { McpTaskQueueModule, type McpTaskQueueOptions } from '../../src/bullmq/index.js';

/** What one node of the Redis e2e is told by its parent (environment variables of the child). */
export interface RedisNodeSettings {
  readonly name: string;
  readonly redisUrl: string;
  readonly keyPrefix: string;
  /** `limited` allows this many calls per `rateTtlMs` (over all nodes, since the counter is in Redis). */
  readonly rateLimit: number;
  readonly rateTtlMs: number;
  readonly flowClaimTtlMs: number;
  /** The port to listen on (a replacement takes its predecessor's place behind nginx); default any. */
  readonly port?: number;
  /** Tasks run on the BullMQ queue (`@mocapi/nestjs/bullmq`) with this many handlers per node. */
  readonly queueConcurrency?: number;
  /** More options of the queue (with `queueConcurrency`), e.g. a short `lockMs` so a dead node's job moves soon. */
  readonly queue?: Pick<McpTaskQueueOptions, 'lockMs' | 'stalledCheckMs' | 'maxNodeLosses'>;
  /** The HTTP adapter. Default `express`. */
  readonly adapter?: 'express' | 'fastify';
  /** Seed nodes of a Redis Cluster: both modules then get an ioredis `Cluster` as `client` (`redisUrl` is unused). */
  readonly cluster?: ReadonlyArray<{ readonly host: string; readonly port: number }>;
}

/** How long a node vouches for a task it runs (`tasks.leaseMs`): short, so a killed node's task fails soon. */
export const TASK_LEASE_MS = 1500;

export const SHARED_SECRETS = ['redis-multi-node-secret-0123456789-abcdefghijklmnop'];
export const MOTD = 'test://motd';

/** True for the first process (of all nodes) to ask about this flow. */
function firstToArrive(flowId: string): boolean {
  return created(join(tmpdir(), `mocapi-slow-${flowId.replace(/[^\w-]/g, '_')}`));
}

/**
 * The files of a `stalling_task` run labelled `label`: `marker`, made by the first node to run it
 * (the one that stalls), and `release`, whose creation (by the test) ends the stall.
 */
export function stallFiles(label: string): { readonly marker: string; readonly release: string } {
  const safe = label.replace(/[^\w-]/g, '_');
  return { marker: join(tmpdir(), `mocapi-stall-${safe}`), release: join(tmpdir(), `mocapi-stall-${safe}-release`) };
}

/** Creates `file`; false when it exists already. */
function created(file: string): boolean {
  try {
    writeFileSync(file, '', { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

/** Blocks this process's event loop (no timer, no I/O callback runs) until `file` exists or `maxMs` passed. */
function blockUntilExists(file: string, maxMs: number): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + maxMs;
  while (!existsSync(file) && Date.now() < deadline) Atomics.wait(cell, 0, 0, 50);
}

/** How many handlers of the step tools run on this node now. */
let running = 0;

/** This node's name, for the tools. */
export class NodeName {
  constructor(readonly name: string) {}
}

/** Tools that say which node ran them; `place_order` prints `RAN <flowId> <node>` to stdout when its side effect happens. */
@SkipThrottle()
@Injectable()
class NodeTools {
  constructor(
    private readonly elicitation: ElicitationContext,
    private readonly registrar: McpRegistrar,
    private readonly node: NodeName,
    private readonly progress: McpProgressReporter,
    private readonly task: McpTaskContext,
    private readonly redis: McpRedisConnection,
  ) {}

  @McpTool({ name: 'whoami', description: 'Names the node that ran it' })
  whoami(): string {
    return this.node.name;
  }

  @McpTool({ name: 'touch', description: 'Raises an update of test://motd on this node' })
  touch(): string {
    this.registrar.notifyResourceUpdated(MOTD);
    return this.node.name;
  }

  @McpTool({ name: 'add_tool', description: 'Registers an extra tool on this node (a list change)' })
  addTool(): string {
    const name = `extra_${this.node.name}_${Date.now()}`;
    this.registrar.addTool({ extra: () => 'extra' }, 'extra', { name, description: 'Added at run time' });
    return name;
  }

  @McpTool({ name: 'place_order', description: 'Confirms, then places an order once per flow', exactlyOnce: true })
  async placeOrder(): Promise<{ flowId: string; node: string; placed: boolean }> {
    const answer = await this.elicitation.elicit('Place the order?', (s) => s.boolean('ok'));
    const { flowId } = this.elicitation;
    if (answer.action !== 'accept' || !answer.content.ok) return { flowId, node: this.node.name, placed: false };
    // A slow side effect widens the window in which concurrent copies overlap.
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.stdout.write(`RAN ${flowId} ${this.node.name}\n`);
    return { flowId, node: this.node.name, placed: true };
  }

  @McpTool({
    name: 'slow_order',
    description: 'Like place_order, with a final round that takes 30 s',
    exactlyOnce: true,
  })
  async slowOrder(): Promise<{ flowId: string; node: string }> {
    const answer = await this.elicitation.elicit('Place the slow order?', (s) => s.boolean('ok'));
    const { flowId } = this.elicitation;
    if (answer.action !== 'accept' || !answer.content.ok) return { flowId, node: this.node.name };
    process.stdout.write(`HOLDING ${flowId} ${this.node.name}\n`);
    // The first node to get here (whichever creates the marker file) is killed meanwhile; whoever
    // runs the flow after that is quick.
    if (firstToArrive(flowId)) await new Promise((resolve) => setTimeout(resolve, 30_000));
    process.stdout.write(`RAN ${flowId} ${this.node.name}\n`);
    return { flowId, node: this.node.name };
  }

  @McpTool({ name: 'slow_task', description: 'Runs as a task for half a second', taskSupport: 'required' })
  async slowTask(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 500));
    return `task ran on ${this.node.name}`;
  }

  @McpTool({ name: 'endless_task', description: 'Runs as a task until its signal aborts', taskSupport: 'required' })
  async endlessTask(_args: unknown, exchange: McpExchange): Promise<string> {
    process.stdout.write(`STARTED endless_task ${this.node.name}\n`);
    await new Promise<void>((resolve) => {
      const onAbort = () => {
        process.stdout.write(`ABORTED endless_task ${this.node.name}\n`);
        resolve();
      };
      if (exchange.signal.aborted) onAbort();
      else exchange.signal.addEventListener('abort', onAbort, { once: true });
    });
    return 'stopped';
  }

  @McpTool({
    name: 'steady_report',
    description: 'A task of `steps` (default 40) half-second steps, each reported as progress (STEP lines on stdout)',
    inputSchema: {
      type: 'object',
      properties: { label: { type: 'string' }, steps: { type: 'integer' } },
      required: ['label'],
    },
    taskSupport: 'required',
  })
  async steadyReport(args: { label: string; steps?: number }, exchange: McpExchange): Promise<string> {
    return this.steps(args.label, args.steps ?? 40, exchange);
  }

  @McpTool({
    name: 'short_report',
    description: 'A task of 4 half-second steps (STEP lines; CONCURRENT lines say how many run here)',
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    taskSupport: 'required',
  })
  async shortReport(args: { label: string }, exchange: McpExchange): Promise<string> {
    return this.steps(args.label, 4, exchange);
  }

  @McpTool({
    name: 'approved_report',
    description: 'Asks for an approval, then runs 4 half-second steps',
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    taskSupport: 'required',
  })
  async approvedReport(args: { label: string }, exchange: McpExchange): Promise<string> {
    const answer = await this.elicitation.elicit(`Approve ${args.label}?`, (s) => s.boolean('ok'));
    if (answer.action !== 'accept' || !answer.content.ok) return `Report ${args.label} not approved`;
    return this.steps(args.label, 4, exchange);
  }

  @McpTool({
    name: 'ledger_entry',
    description:
      'A task that books one ledger entry after a short wait, once per task (keyed on its operationId): an EFFECT line on stdout',
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    taskSupport: 'required',
  })
  async ledgerEntry(args: { label: string }, exchange: McpExchange): Promise<string> {
    const { operationId } = this.task;
    process.stdout.write(`BEGIN ${args.label} ${this.node.name} ${operationId}\n`);
    await new Promise((resolve) => setTimeout(resolve, 200 + Math.floor(Math.random() * 600)));
    exchange.signal.throwIfAborted();
    // The ledger dedupes by the task's key, as a payments API dedupes by an idempotency key: a run
    // from the top on another node (its node died after booking) books nothing more.
    const booked = await this.redis.run((r) => r.hsetnx(`${this.redis.prefix}ledger`, operationId, args.label));
    if (Number(booked) === 1) process.stdout.write(`EFFECT ${args.label} ${this.node.name}\n`);
    return `Entry ${args.label} booked`;
  }

  @McpTool({
    name: 'stalling_task',
    description:
      'A task whose first run blocks its node until released, then runs `steps` 100 ms steps; any later run `takeoverSteps` (STALL, ABORTED, DONE lines)',
    inputSchema: {
      type: 'object',
      properties: { label: { type: 'string' }, steps: { type: 'integer' }, takeoverSteps: { type: 'integer' } },
      required: ['label', 'steps', 'takeoverSteps'],
    },
    taskSupport: 'required',
  })
  async stallingTask(
    args: { label: string; steps: number; takeoverSteps: number },
    exchange: McpExchange,
  ): Promise<string> {
    const { label } = args;
    const files = stallFiles(label);
    process.stdout.write(`START ${label} ${this.node.name}\n`);
    const first = created(files.marker);
    if (first) {
      process.stdout.write(`STALL ${label} ${this.node.name}\n`);
      blockUntilExists(files.release, 60_000);
      process.stdout.write(`RESUMED ${label} ${this.node.name}\n`);
    }
    const steps = first ? args.steps : args.takeoverSteps;
    for (let step = 1; step <= steps; step++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { signal } = exchange;
      if (signal.aborted) {
        const reason = signal.reason as { reason?: string; message?: string };
        process.stdout.write(`ABORTED ${label} ${this.node.name} ${reason.reason}: ${reason.message}\n`);
        throw signal.reason;
      }
    }
    process.stdout.write(`DONE ${label} ${this.node.name}\n`);
    return `Stalling task ${label} done on ${this.node.name}`;
  }

  /** `count` half-second steps, each reported; stops with the signal. Counts the handlers running here. */
  private async steps(label: string, count: number, exchange: McpExchange): Promise<string> {
    running++;
    process.stdout.write(`CONCURRENT ${this.node.name} ${running}\n`);
    try {
      for (let step = 1; step <= count; step++) {
        exchange.signal.throwIfAborted();
        process.stdout.write(`STEP ${label} ${step} ${this.node.name}\n`);
        this.progress.report(step, count, `Step ${step} of ${count} on ${this.node.name}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      process.stdout.write(`DONE ${label} ${this.node.name}\n`);
      return `Report ${label} done in ${count} steps`;
    } finally {
      running--;
    }
  }

  @McpTool({ name: 'survey', description: 'Asks two questions' })
  async survey(): Promise<string> {
    const name = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    const city = await this.elicitation.elicit('Your city?', (s) => s.string('city'));
    if (name.action !== 'accept' || city.action !== 'accept') return 'incomplete';
    return `${name.content.name} from ${city.content.city} (completed by ${this.node.name})`;
  }

  @McpResource({ uri: MOTD, name: 'motd', description: 'Message of the day', mimeType: 'text/plain' })
  motd(): string {
    return 'Bonjour';
  }
}

/** Throttled apart: the module's own limit is out of reach, `limited` has the test's. */
@Injectable()
class LimitedTools {
  @McpTool({ name: 'limited', description: 'Rate limited across all nodes' })
  limited(): string {
    return 'ok';
  }
}

/**
 * The three ways to set the module up, one per node of the e2e: forRoot with a URL (node-a), forRoot
 * with the application's own ioredis client (node-b), forRootAsync (node-c).
 */
function redisModule(settings: RedisNodeSettings): DynamicModule {
  const shared = { keyPrefix: settings.keyPrefix, commandTimeoutMs: 1000, flowClaimTtlMs: settings.flowClaimTtlMs };
  if (settings.cluster) return McpRedisModule.forRoot({ ...shared, client: new Cluster([...settings.cluster]) });
  if (settings.name === 'node-b') return McpRedisModule.forRoot({ ...shared, client: new Redis(settings.redisUrl) });
  if (settings.name === 'node-c') {
    return McpRedisModule.forRootAsync({ useFactory: async () => ({ ...shared, connection: settings.redisUrl }) });
  }
  return McpRedisModule.forRoot({ ...shared, connection: settings.redisUrl });
}

/** One node: McpModule, McpRedisModule, and the throttler on Redis storage. */
export function redisNodeModule(settings: RedisNodeSettings): DynamicModule {
  Throttle({ default: { limit: settings.rateLimit, ttl: settings.rateTtlMs } })(LimitedTools);
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'redis-multi-node',
        version: '1.0.0',
        mrtr: { secrets: SHARED_SECRETS },
        tasks: { ttlMs: 60_000, pollIntervalMs: 50, leaseMs: TASK_LEASE_MS },
      }),
      redisModule(settings),
      ...(settings.queueConcurrency === undefined
        ? []
        : [
            McpTaskQueueModule.forRoot({
              ...(settings.cluster
                ? { client: new Cluster([...settings.cluster], { redisOptions: { maxRetriesPerRequest: null } }) }
                : { connection: settings.redisUrl }),
              queueName: settings.keyPrefix.replace(/:$/, ''),
              concurrency: settings.queueConcurrency,
              ...settings.queue,
            }),
          ]),
      McpThrottlerModule.forRootAsync({
        inject: [RedisThrottlerStorage],
        useFactory: (storage: RedisThrottlerStorage) => ({
          throttlers: [{ name: 'default', limit: 1_000_000_000, ttl: 60_000 }],
          storage,
        }),
      }),
    ],
    providers: [NodeTools, LimitedTools, { provide: NodeName, useValue: new NodeName(settings.name) }],
  })
  class RedisNodeModule {}
  return { module: RedisNodeModule };
}
