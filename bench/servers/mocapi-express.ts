/** Our module on Express: `NestFactory.create(AppModule, new ExpressAdapter())`, endpoint /mcp. */
import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';

import { buildAppModule } from './mocapi-app.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';

runMain(async () => {
  const env = readServerEnv();
  const AppModule = buildAppModule(env.tools);
  const app = await NestFactory.create<NestExpressApplication>(AppModule, new ExpressAdapter(), {
    logger: ['error'],
  });
  await app.listen(env.port, env.host);
  announceListening('mocapi-express', env);
  exitOnSignal(() => app.close());
});
