/** Our module on Fastify: `NestFactory.create(AppModule, new FastifyAdapter())`, endpoint /mcp. */
import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

import { buildAppModule } from './mocapi-app.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';

runMain(async () => {
  const env = readServerEnv();
  const AppModule = buildAppModule(env.tools);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
    logger: ['error'],
  });
  await app.listen(env.port, env.host);
  announceListening('mocapi-fastify', env);
  exitOnSignal(() => app.close());
});
