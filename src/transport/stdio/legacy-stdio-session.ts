import { randomBytes } from 'node:crypto';
import type { Logger } from '@nestjs/common';
import { failure, readRequest } from '../../protocol/rpc-outcome.js';
import type { LegacyChannel, LegacySession } from '../../legacy/legacy-channel.js';
import type { McpEraRouter } from '../../dispatch/mcp-era-router.js';
import type { LegacySessions } from '../../legacy/legacy-sessions.js';
import type { LegacyDispatcher } from '../../legacy/legacy-dispatcher.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/json-rpc.js';
import { McpError } from '../../protocol/mcp.error.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../../protocol/protocol-version.js';
import { logText } from '../../protocol/log-text.js';

const STDIO = Object.freeze({ kind: 'stdio' } as const);

/** What the 2025-era leg of a stdio connection needs from the module. */
export interface LegacyStdioServices {
  readonly dispatcher: LegacyDispatcher;
  readonly sessions: LegacySessions;
  /** Routes the connection's first message, and refuses an era the module does not serve (-32022). */
  readonly eras: McpEraRouter;
}

/**
 * A stdio connection whose first message was 2025-era: the connection is the session (no id is
 * needed), `initialize` settles its version and capabilities, server-to-client requests go out on
 * the output like any other line, and the client's responses come back on the input.
 */
export class LegacyStdioSession {
  private session: LegacySession;

  constructor(
    private readonly services: LegacyStdioServices,
    /** Whether the module serves the 2025 era: else every request is refused with -32022. */
    private readonly served: boolean,
    private readonly write: (message: JsonRpcResponse | JsonRpcNotification | JsonRpcRequest) => void,
    private readonly logger: Logger,
    /** Told of each request refused before the 2025-era dispatcher saw it. */
    private readonly refused: (response: JsonRpcResponse, method?: string) => void = () => undefined,
  ) {
    const id = `stdio-${randomBytes(9).toString('base64url')}`;
    const state = services.sessions.state(id);
    // The output is the session's stream: list_changed and resource updates go straight to it.
    state.attach({ send: (notification) => this.write(notification), close: () => undefined });
    this.session = {
      claims: {
        id,
        protocolVersion: LEGACY_PROTOCOL_VERSIONS[0]!,
        clientCapabilities: {},
        principal: null,
        issuedAt: Date.now(),
      },
      state,
    };
  }

  /**
   * Answers one message; resolves to the response to write (undefined for notifications, client
   * responses and cancelled calls). `signal` aborts when the connection closes.
   */
  async handle(
    message: Record<string, unknown>,
    signal: AbortSignal,
    /** Writes this call's notifications and pushed requests (nothing once it is answered), bounded. */
    notify: (message: JsonRpcNotification | JsonRpcRequest) => void | Promise<void>,
  ): Promise<JsonRpcResponse | undefined> {
    const { dispatcher } = this.services;
    const method = message['method'];
    if (method === undefined) {
      if (!dispatcher.response(message, this.session)) {
        this.logger.warn(
          `Ignored a JSON-RPC response (id ${logText(JSON.stringify(message['id']))}): no request with that id is waiting`,
        );
      }
      return undefined;
    }
    if (typeof method !== 'string') {
      return this.refuse(failure(null, McpError.invalidRequest('The request has no method')).response);
    }
    if (!('id' in message)) {
      if (this.served) dispatcher.notification(method, message['params'], this.session);
      return undefined;
    }
    const request = readRequest(message);
    if ('response' in request) return this.refuse(request.response, method);
    const { id, params } = request;
    if (!this.served) {
      return this.refuse(failure(id, this.services.eras.legacyRequest(method, params)).response, method);
    }

    if (method === 'initialize') {
      const { response, claims: answered } = await dispatcher.initialize(request, STDIO, this.session.claims.id);
      if (!answered) return response;
      const claims = { ...answered, id: this.session.claims.id, issuedAt: Date.now() };
      this.session = { claims, state: this.session.state };
      this.session.state.opened = {
        transport: 'stdio',
        protocolVersion: claims.protocolVersion,
        issuedAt: claims.issuedAt,
      };
      return response;
    }
    const channel: LegacyChannel = {
      transport: STDIO,
      signal,
      notify,
      canRequest: true,
      request: notify,
    };
    return dispatcher.request(request, this.session, channel);
  }

  private refuse(response: JsonRpcResponse, method?: string): JsonRpcResponse {
    this.refused(response, method);
    return response;
  }

  /** Ends the session with the connection (`errorType`: why the connection failed, if it did). */
  close(errorType?: string): void {
    this.services.sessions.release(this.session.claims.id, errorType);
  }
}
