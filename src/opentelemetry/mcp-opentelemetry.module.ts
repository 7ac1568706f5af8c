import { type DynamicModule, Global, Module } from '@nestjs/common';
import { INTEGRATION_REQUEST_OBSERVER } from '../mcp.tokens.js';
import { McpOpenTelemetryObserver } from './mcp-opentelemetry.observer.js';

/** Options of {@link McpOpenTelemetryModule.forRoot}. */
export interface McpOpenTelemetryOptions {
  /** Version reported with the instrumentation scope (`@mocapi/nestjs`). */
  instrumentationVersion?: string;
}

/**
 * Traces and measures every MCP request with OpenTelemetry (see {@link McpOpenTelemetryObserver}),
 * through `@opentelemetry/api`: register an SDK (tracer, meter and a W3C propagator) before the
 * application is created. It runs beside the audit sink, whatever the import order.
 *
 * ```ts
 * imports: [McpModule.forRoot({ ... }), McpOpenTelemetryModule.forRoot()]
 * ```
 *
 * @publicApi
 */
@Global()
@Module({})
export class McpOpenTelemetryModule {
  static forRoot(options: McpOpenTelemetryOptions = {}): DynamicModule {
    return {
      module: McpOpenTelemetryModule,
      providers: [
        {
          provide: INTEGRATION_REQUEST_OBSERVER,
          useFactory: () => new McpOpenTelemetryObserver(options.instrumentationVersion),
        },
      ],
      exports: [INTEGRATION_REQUEST_OBSERVER],
    };
  }
}
