// The server under attack in slow-readers.e2e-spec.ts, run in a child process so that its memory is its
// own: `node --expose-gc --import test/stdio/swc-register.mjs slow-readers.server.ts <express|fastify>`.
// It prints its port over IPC and answers the parent's IPC requests: the memory it holds, a burst of events, what
// the flooding tools saw. Nest logs go to stdout/stderr, which the parent reads for ERROR lines.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import {
  McpClientLogger,
  McpEventBus,
  McpModule,
  McpProgressReporter,
  McpTool,
  isCallAborted,
} from '../../src/index.js';

/** What a flooding tool's run came to, for the parent's assertions. */
interface FloodRun {
  sent: number;
  state: 'running' | 'waiting' | 'ended';
  abortReason?: string;
}

const runs: Record<string, FloodRun> = {};
const TOTAL = 100_000;
const PAD = 'x'.repeat(60);

@Injectable()
class FloodTools {
  constructor(
    private readonly progress: McpProgressReporter,
    private readonly log: McpClientLogger,
  ) {}

  /** 100,000 progress and log notifications without waiting for the client: it must be stopped. */
  @McpTool({ name: 'flood_unawaited', description: 'Floods its stream without awaiting' })
  floodUnawaited(input: Record<string, unknown>): string {
    const signal = this.progress.signal!;
    const run: FloodRun = (runs[String(input['run'])] = { sent: 0, state: 'running' });
    for (let i = 0; i < TOTAL / 2 && !signal.aborted; i++) {
      this.progress.report(i, TOTAL / 2, PAD);
      void this.log.info({ i, pad: PAD });
      run.sent += 2;
    }
    run.state = 'ended';
    run.abortReason = isCallAborted(signal.reason) ? signal.reason.reason : undefined;
    return `sent ${run.sent}`;
  }

  /** The same flood, awaiting each log message: it goes at the client's pace. */
  @McpTool({ name: 'flood_awaited', description: 'Floods its stream, awaiting each log message' })
  async floodAwaited(input: Record<string, unknown>): Promise<string> {
    const signal = this.progress.signal!;
    const run: FloodRun = (runs[String(input['run'])] = { sent: 0, state: 'running' });
    for (let i = 0; i < TOTAL / 2 && !signal.aborted; i++) {
      this.progress.report(i, TOTAL / 2, PAD);
      run.state = 'waiting';
      await this.log.info({ i, pad: PAD });
      run.state = 'running';
      run.sent += 2;
    }
    run.state = 'ended';
    run.abortReason = isCallAborted(signal.reason) ? signal.reason.reason : undefined;
    return `sent ${run.sent}`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'slow-readers', version: '1.0.0', mrtr: { secrets: ['s'.repeat(40)] } })],
  providers: [FloodTools],
})
class SlowReadersModule {}

type Request = { id: number; op: 'memory' } | { id: number; op: 'fire'; count: number } | { id: number; op: 'runs' };

async function main(): Promise<void> {
  const adapter = process.argv[2] === 'fastify' ? new FastifyAdapter() : new ExpressAdapter();
  const app = await NestFactory.create(SlowReadersModule, adapter, { logger: ['error', 'warn', 'log'] });
  await app.listen(0, '127.0.0.1');
  const bus = app.get(McpEventBus);
  const gc = (globalThis as { gc?: () => void }).gc;

  process.on('message', (message: Request) => {
    void (async () => {
      if (message.op === 'memory') {
        gc?.();
        await new Promise((resolve) => setTimeout(resolve, 50));
        gc?.();
        const { heapUsed, external } = process.memoryUsage();
        process.send!({ id: message.id, held: heapUsed + external });
      } else if (message.op === 'fire') {
        // Back to back, giving the event loop a turn now and then as a real source of changes does.
        for (let i = 0; i < message.count; i++) {
          bus.publish({ kind: 'list_changed', list: 'tools' });
          if (i % 200 === 199) await new Promise((resolve) => setImmediate(resolve));
        }
        process.send!({ id: message.id, fired: message.count });
      } else {
        process.send!({ id: message.id, runs });
      }
    })();
  });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
  const { port } = app.getHttpServer().address() as { port: number };
  process.send!({ ready: true, port });
}

void main();
