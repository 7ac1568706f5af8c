import type { ExecutionContext } from '@nestjs/common';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { clientRendersApps } from './mcp-apps-support.js';

/**
 * What guards, interceptors and filters can read about an MCP call, on the model of
 * `GqlExecutionContext`: `McpExecutionContext.create(context)` when `context.getType() === 'mcp'`.
 *
 * @publicApi
 */
export class McpExecutionContext {
  private constructor(private readonly context: ExecutionContext) {}

  static create(context: ExecutionContext): McpExecutionContext {
    if (context.getType<string>() !== 'mcp') {
      throw new Error(`McpExecutionContext.create() needs an 'mcp' execution context, got '${context.getType()}'`);
    }
    return new McpExecutionContext(context);
  }

  /** The request's exchange: method, params, client capabilities, signal, HTTP request. */
  getExchange(): McpExchange {
    return this.context.getArgByIndex<McpExchange>(1);
  }

  /** The validated input the handler receives (the DTO instance, when the tool has one). */
  getArgs<T = unknown>(): T {
    return this.context.getArgByIndex<T>(0);
  }

  /** The JSON-RPC method, e.g. 'tools/call'. */
  getMethod(): string {
    return this.getExchange().method;
  }

  /** The tool or prompt name, or the resource URI, the request targets. */
  getTarget(): string | undefined {
    const params = this.getExchange().params;
    const target = params['name'] ?? params['uri'];
    return typeof target === 'string' ? target : undefined;
  }

  /** Shorthand for tools: the name of the tool being called. */
  getToolName(): string | undefined {
    return this.getMethod() === 'tools/call' ? this.getTarget() : undefined;
  }

  /**
   * Whether this client renders MCP Apps (it declared `io.modelcontextprotocol/ui` with the app
   * MIME type: in `initialize` for a 2025-era session, in the request's `_meta` on 2026-07-28).
   */
  rendersApps(): boolean {
    return clientRendersApps(this.getExchange());
  }

  /** The underlying Node HTTP request, when the call came over HTTP. */
  getHttpRequest(): import('node:http').IncomingMessage | undefined {
    const transport = this.getExchange().transport;
    return transport.kind === 'http' ? transport.request : undefined;
  }
}
