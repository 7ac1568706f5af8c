import type { IncomingMessage } from 'node:http';
import type { McpTransportInfo } from '../../protocol/mcp-exchange.js';

/** The transport of an HTTP request, as every layer below the endpoint sees it. */
export type HttpTransportInfo = Extract<McpTransportInfo, { kind: 'http' }>;

/**
 * The adapter's own request object, which reports the client's address honouring the app's proxy
 * setting: Express's `req` (`trust proxy`), Fastify's request (`trustProxy`; not its `raw`).
 */
export interface ClientAddressSource {
  readonly ip?: string | undefined;
}

/**
 * The transport of one HTTP request, made once by the endpoint and handed down as it is. Its
 * `clientAddress` is asked of the adapter on first read and kept, so every per-caller bound reads
 * the same value, and a request that never needs it does not pay for it (Express walks
 * `X-Forwarded-For` on every read of `req.ip`).
 */
export class HttpRequestTransport implements HttpTransportInfo {
  readonly kind = 'http';
  readonly #source: ClientAddressSource;
  #clientAddress: string | undefined;
  #read = false;

  constructor(
    readonly request: IncomingMessage,
    source: ClientAddressSource,
  ) {
    this.#source = source;
  }

  get clientAddress(): string | undefined {
    if (!this.#read) {
      this.#clientAddress = this.#source.ip;
      this.#read = true;
    }
    return this.#clientAddress;
  }
}
