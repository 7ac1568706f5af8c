import { Injectable, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  InjectMcpClient,
  McpClientConnection,
  McpClientModule,
  type McpClientServerOptions,
} from '../../../src/client/index.js';

/** The application's own service: it calls the tools of the server named `upstream`. */
@Injectable()
export class ForecastService {
  constructor(@InjectMcpClient('upstream') readonly upstream: McpClientConnection) {}

  /** The text of the first content block of a tool's result. */
  async callText(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const client = await this.upstream.client();
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const [first] = result.content;
    if (first?.type !== 'text') throw new Error(`${name}: no text content`);
    return first.text;
  }

  async toolNames(): Promise<string[]> {
    const client = await this.upstream.client();
    const { tools } = await client.listTools();
    return tools.map((tool) => tool.name).sort();
  }
}

/** An application module with McpClientModule configured for one server, `upstream`. */
export function forecastAppModule(upstream: McpClientServerOptions): Type {
  @Module({
    imports: [McpClientModule.forRoot({ servers: { upstream } })],
    providers: [ForecastService],
  })
  class ForecastAppModule {}
  return ForecastAppModule;
}

/** Boots the application (no HTTP listener: the client side needs none). */
export async function startForecastApp(
  upstream: McpClientServerOptions,
): Promise<{ app: INestApplicationContext; forecast: ForecastService }> {
  const app = await NestFactory.createApplicationContext(forecastAppModule(upstream), { logger: false });
  return { app, forecast: app.get(ForecastService) };
}
