// The measured server of bench/idle-streams.ts, run in its own process with --expose-gc: one Nest
// app on 127.0.0.1 with one tool, answering `measure` over IPC with its memory (after a forced GC)
// and its open file descriptors.
import { watchGc } from './gc-totals.js';
import { answerParent } from './server-measure.js';

export async function serve(adapter: string, sessions: number): Promise<void> {
  watchGc();
  if (adapter === 'node' || adapter === 'fastify-bare') {
    const { serveBare } = await import('./bare-server.js');
    return serveBare(adapter);
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
  answerParent();
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
  process.send!({ port: (app.getHttpServer().address() as { port: number }).port });
}
