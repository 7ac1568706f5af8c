// One node of the Redis e2e tests and the soak, as its own process:
// node --import ./test/stdio/swc-register.mjs test/redis/redis-node.ts (settings in MOCAPI_NODE, JSON).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { redisNodeModule, type RedisNodeSettings } from './redis-node.module.js';

const settings = JSON.parse(process.env['MOCAPI_NODE'] ?? '{}') as RedisNodeSettings;
const fastify = settings.adapter === 'fastify';
const app = await NestFactory.create(redisNodeModule(settings), fastify ? new FastifyAdapter() : new ExpressAdapter(), {
  logger: ['error', 'warn', 'log'],
});
app.enableShutdownHooks();
// Every answer names the node that gave it, so tests see where the balancer sent each request.
type RawResponse = { setHeader(name: string, value: string): void };
if (fastify) {
  const instance = app.getHttpAdapter().getInstance() as {
    addHook(name: 'onRequest', hook: (req: unknown, reply: { raw: RawResponse }, done: () => void) => void): void;
  };
  instance.addHook('onRequest', (_req, reply, done) => {
    reply.raw.setHeader('x-node', settings.name);
    done();
  });
} else {
  app.use((_req: unknown, res: RawResponse, next: () => void) => {
    res.setHeader('x-node', settings.name);
    next();
  });
}
await app.listen(settings.port ?? 0, '127.0.0.1');
const { port } = app.getHttpServer().address() as { port: number };
process.stdout.write(`READY ${port}\n`);
