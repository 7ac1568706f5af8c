// One node of the node-death e2e (test/idempotency/node-death.e2e-spec.ts), as its own process:
// node --import ./test/stdio/swc-register.mjs test/idempotency/queue-node.ts (settings in MOCAPI_IDEM_NODE, JSON).
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { McpModule, McpTaskContext, McpTool } from '../../src/index.js';
import { McpTaskQueueModule } from '../../src/bullmq/index.js';
import { McpRedisModule } from '../../src/redis/index.js';
import { McpRedisConnection } from '../../src/redis/mcp-redis-connection.js';

export interface QueueNodeSettings {
  readonly name: string;
  readonly redisUrl: string;
  /** Redis key prefix and queue name (one per test run). */
  readonly prefix: string;
}

const settings = JSON.parse(process.env['MOCAPI_IDEM_NODE'] ?? '{}') as QueueNodeSettings;

/** True for the first process (of all nodes) to get here for `label`. */
function first(label: string): boolean {
  try {
    writeFileSync(join(tmpdir(), `mocapi-idem-${settings.prefix}-${label}`), '', { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

@Injectable()
class LedgerTools {
  constructor(
    private readonly task: McpTaskContext,
    private readonly redis: McpRedisConnection,
  ) {}

  /**
   * Books one ledger entry keyed by the task's operationId (HSETNX: booked once per key), then, on
   * the first run of all, hangs until its node is killed: between the effect and the task's ending.
   */
  @McpTool({
    name: 'book_then_hang',
    description: 'Books a ledger entry once per task, then hangs on its first run',
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    taskSupport: 'required',
  })
  async bookThenHang(args: { label: string }): Promise<string> {
    const { operationId } = this.task;
    process.stdout.write(`BEGIN ${args.label} ${operationId}\n`);
    const booked = await this.redis.run((r) => r.hsetnx(`${settings.prefix}:ledger`, operationId, args.label));
    if (Number(booked) === 1) process.stdout.write(`EFFECT ${args.label} ${settings.name}\n`);
    if (first(args.label)) {
      process.stdout.write(`HANGING ${args.label} ${settings.name}\n`);
      await new Promise(() => undefined);
    }
    return `booked ${args.label}`;
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'idempotency-queue',
      version: '1.0.0',
      mrtr: { secrets: ['idempotency-queue-secret-0123456789abcdef0123456789'] },
      tasks: { ttlMs: 60_000, pollIntervalMs: 50 },
    }),
    McpRedisModule.forRoot({ connection: settings.redisUrl, keyPrefix: `${settings.prefix}:` }),
    McpTaskQueueModule.forRoot({
      connection: settings.redisUrl,
      queueName: settings.prefix,
      concurrency: 1,
      lockMs: 3000,
      stalledCheckMs: 1000,
    }),
  ],
  providers: [LedgerTools],
})
class QueueNodeModule {}

const app = await NestFactory.create(QueueNodeModule, new ExpressAdapter(), { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(0, '127.0.0.1');
const { port } = app.getHttpServer().address() as { port: number };
process.stdout.write(`READY ${port}\n`);
