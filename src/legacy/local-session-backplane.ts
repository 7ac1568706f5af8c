import type { LoggingLevel } from '../protocol/wire-types.js';
import {
  McpSessionBackplane,
  type SessionBackplaneHandlers,
  type SharedSessionState,
} from './mcp-session-backplane.js';

/**
 * The default {@link McpSessionBackplane}: nothing is shared, each node keeps its sessions' state
 * itself. Right for one node, or behind a load balancer that sends a session's requests to one node.
 */
export class LocalSessionBackplane extends McpSessionBackplane {
  attach(_handlers: SessionBackplaneHandlers): void {}

  async load(_sessionId: string): Promise<SharedSessionState | undefined> {
    return undefined;
  }

  async setLogLevel(_sessionId: string, _level: LoggingLevel): Promise<void> {}

  async setSubscribed(_sessionId: string, _uri: string, _subscribed: boolean): Promise<void> {}

  async end(_sessionId: string): Promise<void> {}

  async forward(_sessionId: string, _message: Record<string, unknown>): Promise<boolean> {
    return false;
  }
}
