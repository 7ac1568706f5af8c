import { Logger } from '@nestjs/common';
import type { McpAuditEvent } from './mcp-audit-event.js';
import { logText } from '../protocol/log-text.js';

/**
 * Receives one {@link McpAuditEvent} per finished MCP request (principal, method, target, outcome,
 * duration, flow id). It runs after the response is settled; a failure is logged and never reaches
 * the client. Keep it fast, or hand the event off (a queue, a stream).
 *
 * Precedence, independent of module import order: the application's (`McpModule.forRoot({
 * auditSink })`) > an integration module's (`INTEGRATION_AUDIT_SINK`) > the core default, which
 * logs each event with Nest's `Logger` at debug level.
 *
 * @publicApi
 */
export abstract class McpAuditSink {
  abstract record(event: McpAuditEvent): void | Promise<void>;
}

/** The core default: one debug line per request (context `McpAudit`). */
export class LoggerAuditSink extends McpAuditSink {
  private readonly logger = new Logger('McpAudit');

  record(event: McpAuditEvent): void {
    if (!Logger.isLevelEnabled('debug')) return;
    const { outcome } = event;
    const detail =
      'code' in outcome
        ? ` ${outcome.code}`
        : 'reason' in outcome
          ? ` ${outcome.reason}`
          : 'taskId' in outcome
            ? ` ${outcome.taskId}`
            : '';
    const refused = event.refused ? ` refused${event.refused.httpStatus ? ` ${event.refused.httpStatus}` : ''}` : '';
    this.logger.debug(
      `${event.method ? logText(event.method) : '(unread)'}${event.target !== undefined ? ` ${logText(event.target)}` : ''} ${outcome.kind}${logText(detail)}` +
        `${refused} ${event.durationMs.toFixed(1)} ms principal=${logText(event.principal ?? '-')}` +
        (event.flowId !== undefined ? ` flow=${event.flowId}` : ''),
    );
  }
}
