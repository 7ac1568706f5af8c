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
  await app.listen(port, host);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
  console.log(`\nBistro MCP server ready at ${url}`);
  console.log(`Connect an MCP client (2026-07-28, or a 2025-era client that opens with initialize) over Streamable HTTP to ${url}`);
  console.log('Try it: npm run demo\n');
}

void bootstrap();
