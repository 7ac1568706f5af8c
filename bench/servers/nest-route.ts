/**
 * A framework floor: one bare Nest controller route, `@Post('mcp') @HttpCode(200)` with `@Body()`,
 * answering `tools/call add` (see add-route-answer.ts), on Fastify (env NEST_ROUTE_ADAPTER=fastify)
 * or Express (the default), with Nest's defaults: its body parser, its serialization of the
 * returned object, logger errors only. Our target on the same adapter minus this one is the cost of
 * our layer.
 */
import 'reflect-metadata';

import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';

import { MCP_PATH } from '../shared/bench-spec.js';
import { addRouteAnswer } from './add-route-answer.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';

@Controller()
class AddRouteController {
  @Post(MCP_PATH.slice(1))
  @HttpCode(200)
  call(@Body() body: unknown): Record<string, unknown> {
    return addRouteAnswer(body);
  }
}

@Module({ controllers: [AddRouteController] })
class AddRouteModule {}

runMain(async () => {
  const env = readServerEnv();
  const fastify = process.env['NEST_ROUTE_ADAPTER'] === 'fastify';
  const app = await NestFactory.create(AddRouteModule, fastify ? new FastifyAdapter() : new ExpressAdapter(), {
    logger: ['error'],
  });
  await app.listen(env.port, env.host);
  announceListening(`nest-route (${fastify ? 'fastify' : 'express'})`, env);
  exitOnSignal(() => app.close());
});
