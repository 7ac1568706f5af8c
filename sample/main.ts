import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';

async function bootstrap(): Promise<void> {
  const host = process.env['HOST'] ?? '127.0.0.1';
  const port = Number(process.env['PORT'] ?? 3000);
  const app =
    process.env['MCP_ADAPTER'] === 'express'
      ? await NestFactory.create(AppModule)
      : await NestFactory.create(AppModule, new FastifyAdapter());
  app.enableShutdownHooks();
  // Node's own limits on slow clients. They bound receiving a request, not answering it, so long
  // SSE answers (progress, pushed questions, listen streams) are not cut.
  const server = app.getHttpServer() as import('node:http').Server;
  server.headersTimeout = 10_000; // the request line and headers must arrive within 10 s
  server.requestTimeout = 30_000; // the whole request (body included) within 30 s
  server.keepAliveTimeout = 65_000; // longer than a load balancer's idle timeout (often 60 s)
  await app.listen(port, host);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
  console.log(`\nBistro MCP server ready at ${url}`);
  console.log(
    `Connect an MCP client (2026-07-28, or a 2025-era client that opens with initialize) over Streamable HTTP to ${url}`,
  );
  console.log('Try it: npm run demo\n');
}

void bootstrap();
