// The measured server of bench/idle-streams.ts, run in its own process with --expose-gc: one Nest
// app on 127.0.0.1 with one tool, answering `measure` over IPC with its memory (after a forced GC)
// and its open file descriptors.
import { readdirSync, readFileSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';
import { gcTotals, watchGc } from './gc-totals.js';

export interface ServerMeasure {
  rssKb: number;
  heapUsedKb: number;
  externalKb: number;
  fds: number;
}

/** VmRSS of this process, in KB, as the kernel counts it (the process's resident pages only). */
function rssKb(): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(line?.[1] ?? NaN);
}

/**
 * Full collections with a turn of the event loop between them, so that what weak callbacks and
 * finalizers let go (Node's AbortSignal and EventTarget hold some) is gone too; then the figures.
 */
export async function measure(): Promise<ServerMeasure> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the server must run with --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const memory = process.memoryUsage();
  return {
    rssKb: rssKb(),
    heapUsedKb: Math.round(memory.heapUsed / 1024),
    externalKb: Math.round(memory.external / 1024),
    fds: readdirSync('/proc/self/fd').length,
  };
}

export async function serve(adapter: string, sessions: number): Promise<void> {
  watchGc();
  if (adapter === 'node' || adapter === 'fastify-bare') {
    const { serveBare } = await import('./bare-server.js');
    return serveBare(adapter, measure);
  }
  await import('reflect-metadata');
  const { Injectable, Module } = await import('@nestjs/common');
  const { NestFactory } = await import('@nestjs/core');
  const { ExpressAdapter } = await import('@nestjs/platform-express');
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  const { McpModule, McpTool } = await import('../../src/index.js');

  @Injectable()
  class Tools {
    @McpTool({ name: 'add', description: 'Adds two numbers' })
    add(): string {
      return '2';
    }
  }
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'idle-streams',
        version: '1.0.0',
        mrtr: { secrets: ['s'.repeat(40)] },
        // Every bench session comes from one anonymous caller (127.0.0.1): its quota (default 100)
        // would refuse the load. Every other bound keeps its default.
        limits: { maxSessionsPerCaller: sessions + 10 },
      }),
    ],
    providers: [Tools],
  })
  class IdleStreamsModule {}

  const app = await NestFactory.create(
    IdleStreamsModule,
    adapter === 'express' ? new ExpressAdapter() : new FastifyAdapter(),
    { logger: ['error', 'warn'] },
  );
  await app.listen(0, '127.0.0.1');
  process.on('message', (ask: { id: number; op: 'measure' | 'snapshot' | 'gc'; file?: string }) => {
    if (ask.op === 'gc') process.send!({ id: ask.id, gc: gcTotals() });
    if (ask.op === 'measure') void measure().then((m) => process.send!({ id: ask.id, measure: m }));
    if (ask.op === 'snapshot') process.send!({ id: ask.id, file: writeHeapSnapshot(ask.file) });
  });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
  process.send!({ port: (app.getHttpServer().address() as { port: number }).port });
}
