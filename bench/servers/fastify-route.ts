/**
 * A framework floor: one bare Fastify POST route on /mcp answering `tools/call add` (see
 * add-route-answer.ts). It is the Fastify that @nestjs/platform-fastify resolves (so the same
 * version as under our Fastify target), with its defaults: its JSON body parser and serializer.
 */
import { createRequire } from 'node:module';

import { MCP_PATH } from '../shared/bench-spec.js';
import { addRouteAnswer } from './add-route-answer.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';

const fromNestFastify = createRequire(createRequire(import.meta.url).resolve('@nestjs/platform-fastify'));
const fastify = fromNestFastify('fastify') as typeof import('fastify').default;

runMain(async () => {
  const env = readServerEnv();
  const app = fastify();
  app.post(MCP_PATH, async (request) => addRouteAnswer(request.body));
  await app.listen({ port: env.port, host: env.host });
  announceListening('fastify-route', env);
  exitOnSignal(() => app.close());
});
