// failed-call-log.observer.ts
import { Injectable, Logger } from '@nestjs/common';
import { type McpAuditEvent, McpObserver, type McpRequestObserver } from '../../src/index.js';

/** One warning per request answered with a JSON-RPC error, beside whatever else observes. */
@McpObserver()
@Injectable()
export class FailedCallLog implements McpRequestObserver {
  readonly logger = new Logger('FailedCalls');

  finished(event: McpAuditEvent): void {
    const { outcome } = event;
    if (outcome.kind === 'protocol_error') this.logger.warn(`${event.method} ${event.target ?? ''}: ${outcome.code}`);
  }
}

// @Module({ imports: [McpModule.forRoot({ ... }), McpOpenTelemetryModule.forRoot()], providers: [FailedCallLog] })
