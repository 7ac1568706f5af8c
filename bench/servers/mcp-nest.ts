/**
 * @rekog/mcp-nest 2.0.5 at its best set-up (bench/README.md, "Peers"): an `@McpController` with
 * the `add` tool (zod input, text result), `McpStrategy` with a self-mounted
 * `StreamableHttpTransport` in its default stateless mode (a fresh SDK server per request, no
 * session id) and `responseMode: 'json'` (the 2026-07-28 leg never opens an SSE stream; the
 * stateless 2025-era leg answers JSON by default), Nest logger errors only, the strategy's logging
 * off. The harness runs it on NestJS 11 from bench/peers/mcp-nest (env BENCH_PEER_DIR), the major
 * the library is developed and documented on; without BENCH_PEER_DIR it runs on the repository's
 * own Nest 12. Env MCP_NEST_ADAPTER=fastify puts it on Fastify instead of Express.
 *
 * 2.0.5 has no MRTR (peers.md §2), so the MRTR workloads are n/a for this target. Its
 * `confirm_add` uses the only elicitation it offers, the 2025 push model, which works on a
 * stateful 2025-era session only: env MCP_NEST_STATEFUL=1 turns on `statefulMode` (the harness
 * sets it for the 2025-era workloads, on server instances of their own), and MCP_NEST_JSON=1 sets
 * `enableJsonResponse` there (plain calls answered as JSON; the pushed elicitation needs the
 * default SSE). These change only the 2025-era leg: 2026-07-28 requests go to the SDK's
 * createMcpHandler either way.
 */
import 'reflect-metadata';

import type { ServerContext } from '@modelcontextprotocol/server';
import type { McpContext } from '@rekog/mcp-nest';
import type * as ZodModule from 'zod';

import { ADD_TOOL, CONFIRM_ADD_TOOL, CONFIRM_STEPS_TOOL, fillerTools, stepMessage } from '../shared/bench-spec.js';
import { requirePeer } from './peer-require.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';
import { zodSchemas } from './zod-schemas.js';

const { Module } = requirePeer('@nestjs/common') as typeof import('@nestjs/common');
const { NestFactory } = requirePeer('@nestjs/core') as typeof import('@nestjs/core');
const { Ctx, Payload } = requirePeer('@nestjs/microservices') as typeof import('@nestjs/microservices');
const { McpController, McpStrategy, StreamableHttpTransport, Tool } = requirePeer(
  '@rekog/mcp-nest',
) as typeof import('@rekog/mcp-nest');
const { z } = requirePeer('zod') as typeof ZodModule;
const { NumberPairSchema, ConfirmSchema, StepsSchema, fillerZodSchema } = zodSchemas(z);

@McpController()
class BenchController {
  @Tool({ name: ADD_TOOL.name, description: ADD_TOOL.description, parameters: NumberPairSchema })
  add(@Payload() { a, b }: { a: number; b: number }) {
    return { content: [{ type: 'text', text: String(a + b) }] };
  }

  @Tool({ name: CONFIRM_ADD_TOOL.name, description: CONFIRM_ADD_TOOL.description, parameters: NumberPairSchema })
  async confirmAdd(@Payload() { a, b }: { a: number; b: number }, @Ctx() ctx: McpContext) {
    // The documented call (docs/tools.md, "Interactive Tool with Elicitation"), plus the SDK's
    // `relatedRequestId` so that the request goes out on this call's own SSE stream, as the other
    // targets send it; without it the SDK sends it on the session's GET stream. The id comes from
    // the SDK's per-request context, which McpContext keeps as its fifth argument.
    const sdk = ctx.getArgByIndex(4) as ServerContext | undefined;
    const answer = await ctx.mcpServer.server.elicitInput(
      {
        message: CONFIRM_ADD_TOOL.message,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      },
      sdk ? { relatedRequestId: sdk.mcpReq.id } : undefined,
    );
    const ok = answer.action === 'accept' && ConfirmSchema.safeParse(answer.content).data?.ok === true;
    return { content: [{ type: 'text', text: ok ? String(a + b) : 'cancelled' }] };
  }

  // Listed so that every target's tools/list has the same tools; the flows that use it are MRTR
  // workloads, n/a here. It asks its questions by the same 2025 push, one after the other.
  @Tool({ name: CONFIRM_STEPS_TOOL.name, description: CONFIRM_STEPS_TOOL.description, parameters: StepsSchema })
  async confirmSteps(@Payload() { steps, a, b }: { steps: number; a: number; b: number }, @Ctx() ctx: McpContext) {
    const sdk = ctx.getArgByIndex(4) as ServerContext | undefined;
    for (let step = 1; step <= steps; step++) {
      const answer = await ctx.mcpServer.server.elicitInput(
        {
          message: stepMessage(step, steps),
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
        sdk ? { relatedRequestId: sdk.mcpReq.id } : undefined,
      );
      if (answer.action !== 'accept' || ConfirmSchema.safeParse(answer.content).data?.ok !== true)
        return { content: [{ type: 'text', text: 'cancelled' }] };
    }
    return { content: [{ type: 'text', text: String(a + b) }] };
  }
}

/** A controller with `total - 3` filler tools, built by applying the decorators by hand. */
function fillerController(total: number): new () => object {
  class FillerController {}
  const proto = FillerController.prototype as unknown as Record<string, unknown>;
  const result = { content: [{ type: 'text', text: 'ok' }] };
  for (const tool of fillerTools(total)) {
    proto[tool.name] = function filler() {
      return result;
    };
    Payload()(proto, tool.name, 0);
    const descriptor = Object.getOwnPropertyDescriptor(proto, tool.name)!;
    Tool({ name: tool.name, description: tool.description, parameters: fillerZodSchema(tool) })(
      proto,
      tool.name,
      descriptor,
    );
  }
  McpController()(FillerController);
  return FillerController;
}

/** The HTTP adapter the app runs on (env MCP_NEST_ADAPTER: express, the default, or fastify). */
function httpAdapter(): object {
  if (process.env['MCP_NEST_ADAPTER'] === 'fastify') {
    const { FastifyAdapter } = requirePeer('@nestjs/platform-fastify') as typeof import('@nestjs/platform-fastify');
    return new FastifyAdapter();
  }
  const { ExpressAdapter } = requirePeer('@nestjs/platform-express') as typeof import('@nestjs/platform-express');
  return new ExpressAdapter();
}

runMain(async () => {
  const env = readServerEnv();
  const statefulMode = process.env['MCP_NEST_STATEFUL'] === '1';
  const strategy = new McpStrategy({
    name: 'bench-mcp-nest',
    version: '1.0.0',
    transports: [
      new StreamableHttpTransport({
        statefulMode,
        responseMode: 'json',
        ...(process.env['MCP_NEST_JSON'] === '1' && { enableJsonResponse: true }),
      }),
    ],
    logging: false,
  });

  @Module({ controllers: [BenchController, fillerController(env.tools)] })
  class AppModule {}

  const app = await NestFactory.create(AppModule, httpAdapter() as never, { logger: ['error'] });
  strategy.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy });
  await app.startAllMicroservices();
  await app.listen(env.port, env.host);
  announceListening(`mcp-nest (${process.env['MCP_NEST_ADAPTER'] ?? 'express'})`, env);
  exitOnSignal(() => app.close());
});
