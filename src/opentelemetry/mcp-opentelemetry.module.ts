import { type DynamicModule, Module } from '@nestjs/common';
import { McpOpenTelemetryObserver } from './mcp-opentelemetry-observer.js';

/** Options of {@link McpOpenTelemetryModule.forRoot}. */
export interface McpOpenTelemetryOptions {
  /** Version reported with the instrumentation scope (`@mocapi/nestjs`). */
  instrumentationVersion?: string;
}

/**
 * Traces and measures every MCP request with OpenTelemetry (see {@link McpOpenTelemetryObserver}),
 * through `@opentelemetry/api`: register an SDK (tracer, meter and a W3C propagator) before the
 * application is created. Its observer (an `@McpObserver()` provider) runs beside the audit sink and
 * the application's own observers, whatever the import order.
 *
 * ```ts
 * imports: [McpModule.forRoot({ ... }), McpOpenTelemetryModule.forRoot()]
 * ```
 *
 * @publicApi
 */
@Module({})
export class McpOpenTelemetryModule {
  static forRoot(options: McpOpenTelemetryOptions = {}): DynamicModule {
    return {
      module: McpOpenTelemetryModule,
      providers: [
        {
          provide: McpOpenTelemetryObserver,
          useFactory: () => new McpOpenTelemetryObserver(options.instrumentationVersion),
        },
      ],
      exports: [McpOpenTelemetryObserver],
    };
  }
}
