import { post, send, type RawResponse } from '../support/raw-mcp.js';
import { openSse, type SseStream } from '../support/sse-stream.js';

export const LEGACY_VERSION = '2025-11-25';

/** A hand-driven 2025-era session over node:http, for wire-level assertions. */
export class LegacyWire {
  private nextId = 1;

  private constructor(
    readonly url: string,
    readonly sessionId: string,
    private readonly extraHeaders: Record<string, string>,
  ) {}

  /** Sends initialize (+ notifications/initialized) and keeps the session id. */
  static async open(
    url: string,
    capabilities: Record<string, unknown> = { elicitation: {} },
    extraHeaders: Record<string, string> = {},
  ): Promise<LegacyWire> {
    const r = await initialize(
      url,
      { protocolVersion: LEGACY_VERSION, capabilities, clientInfo: { name: 'legacy-wire', version: '1.0.0' } },
      extraHeaders,
    );
    if (r.status !== 200) throw new Error(`initialize answered ${r.status}: ${r.text}`);
    const wire = new LegacyWire(url, String(r.headers['mcp-session-id']), extraHeaders);
    const initialized = await wire.notify('notifications/initialized');
    if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
    return wire;
  }

  headers(overrides: Record<string, string> = {}): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LEGACY_VERSION,
      'mcp-session-id': this.sessionId,
      ...this.extraHeaders,
      ...overrides,
    };
  }

  /** A request answered as JSON (or SSE read as text: use `stream` for those). */
  request(
    method: string,
    params: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): Promise<RawResponse> {
    return post(this.url, { jsonrpc: '2.0', id: this.nextId++, method, params }, this.headers(headers));
  }

  /** A request whose answer is read as an SSE stream (pushed requests, notifications, then the response). */
  stream(
    method: string,
    params: Record<string, unknown> = {},
    id: number | string = this.nextId++,
    headers: Record<string, string> = {},
  ): Promise<SseStream> {
    return openSse(this.url, { jsonrpc: '2.0', id, method, params }, this.headers(headers));
  }

  notify(method: string, params: Record<string, unknown> = {}): Promise<RawResponse> {
    return post(this.url, { jsonrpc: '2.0', method, params }, this.headers());
  }

  /** POSTs the client's response to a pushed request. */
  answer(id: unknown, result: Record<string, unknown>, headers: Record<string, string> = {}): Promise<RawResponse> {
    return post(this.url, { jsonrpc: '2.0', id, result }, this.headers(headers));
  }

  delete(): Promise<RawResponse> {
    return send(this.url, 'DELETE', undefined, this.headers());
  }
}

export function initialize(
  url: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return post(
    url,
    { jsonrpc: '2.0', id: 0, method: 'initialize', params },
    { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  );
}
