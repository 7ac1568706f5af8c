/**
 * @rekog/mcp-nest 2.0.5, set up as in peers.md §4: an `@McpController` with the `add` tool
 * (zod input, text result), `McpStrategy` with a default `StreamableHttpTransport()`
 * (stateless, dual-era: 2026-07-28 requests go through the SDK's createMcpHandler), on
 * Express, Nest logger errors only and the strategy's logging off.
 *
 * 2.0.5 has no MRTR (peers.md §2), so the MRTR workloads are n/a for this target. Its
 * `confirm_add` uses the only elicitation it offers, the 2025 push model, which works on a
 * stateful 2025-era session only: env MCP_NEST_STATEFUL=1 turns on `statefulMode` (the harness
 * sets it for the 2025-era workloads, on a server instance of their own). `statefulMode` changes
 * only the 2025-era leg: 2026-07-28 requests go to the SDK's createMcpHandler either way.
 */
import 'reflect-metadata';

import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, Payload } from '@nestjs/microservices';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import type { ServerContext } from '@modelcontextprotocol/server';
import { McpController, McpStrategy, StreamableHttpTransport, Tool, type McpContext } from '@rekog/mcp-nest';

import { ADD_TOOL, CONFIRM_ADD_TOOL, fillerTools } from '../shared/bench-spec.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';
import { ConfirmSchema, NumberPairSchema, fillerZodSchema } from './zod-schemas.js';

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
}

/** A controller with `total - 2` filler tools, built by applying the decorators by hand. */
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

runMain(async () => {
  const env = readServerEnv();
  const strategy = new McpStrategy({
    name: 'bench-mcp-nest',
    version: '1.0.0',
    transports: [new StreamableHttpTransport({ statefulMode: process.env['MCP_NEST_STATEFUL'] === '1' })],
    logging: false,
  });

  @Module({ controllers: [BenchController, fillerController(env.tools)] })
  class AppModule {}

  const app = await NestFactory.create<NestExpressApplication>(AppModule, new ExpressAdapter(), {
    logger: ['error'],
  });
  strategy.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy });
  await app.startAllMicroservices();
  await app.listen(env.port, env.host);
  announceListening('mcp-nest', env);
  exitOnSignal(() => app.close());
});
