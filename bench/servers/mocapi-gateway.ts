/**
 * Our module as a gateway on Fastify (app in gateway-app.ts), endpoint /mcp: the harness starts
 * the upstream first (our own mocapi-fastify server) and passes its endpoint as UPSTREAM_URL;
 * UPSTREAM_ERA=legacy leaves the gateway's client at the 2025 era (default: 2026-07-28 pinned).
 */
import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

import { buildGatewayModule, type UpstreamEra } from './gateway-app.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';

function readUpstream(env: NodeJS.ProcessEnv = process.env): { url: string; era: UpstreamEra } {
  const url = env['UPSTREAM_URL'];
  if (url === undefined || !/^http:\/\/(127\.0\.0\.1|\[::1\]|localhost):\d+\//.test(url)) {
    throw new Error(`UPSTREAM_URL must be a loopback http URL, got ${url}`);
  }
  const era = env['UPSTREAM_ERA'] ?? 'modern';
  if (era !== 'modern' && era !== 'legacy') throw new Error(`UPSTREAM_ERA must be modern or legacy, got ${era}`);
  return { url, era };
}

runMain(async () => {
  const env = readServerEnv();
  const upstream = readUpstream();
  const AppModule = buildGatewayModule(env.tools, upstream.url, upstream.era);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
    logger: ['error'],
  });
  await app.listen(env.port, env.host);
  announceListening(`mocapi-gateway (upstream ${upstream.url}, ${upstream.era})`, env);
  exitOnSignal(() => app.close());
});
