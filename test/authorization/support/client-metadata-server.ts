import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TlsMaterial } from './test-ca.js';

/**
 * An OAuth Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document): client
 * metadata (RFC 7591 names) whose `client_id` is the document's own URL.
 */
export interface ClientMetadataDocument {
  client_id?: string;
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  redirect_uris: string[];
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: string;
  scope?: string;
  [field: string]: unknown;
}

/** How a path misbehaves. */
export interface DocumentKnobs {
  /** Pads the JSON (a `_padding` field) until the body is at least this many bytes (e.g. 100_000). */
  readonly padToBytes?: number;
  /** Waits this long before answering (headers and body). */
  readonly delayMs?: number;
  /** Answers `302 Location: <redirectTo>` instead of the document. */
  readonly redirectTo?: string;
  /** Puts this `client_id` in the document instead of its URL (a document that lies about itself). */
  readonly clientId?: string;
  /** Leaves `client_id` out of the document. */
  readonly omitClientId?: boolean;
  /** The HTTP status (default 200). */
  readonly status?: number;
  /** Default `application/json`. */
  readonly contentType?: string;
  /** A `cache-control` header (none by default). */
  readonly cacheControl?: string;
  /** Answers this text instead of the document's JSON (broken JSON, HTML…). */
  readonly rawBody?: string;
}

interface Route {
  document: ClientMetadataDocument;
  knobs: DocumentKnobs;
}

/** One request the server answered. */
export interface MetadataFetch {
  readonly path: string;
  readonly at: number;
  readonly userAgent?: string;
  readonly accept?: string;
}

/**
 * An HTTPS server on 127.0.0.1 (ephemeral port, test CA) serving Client ID Metadata Documents, as
 * an MCP host publishes its own. Each path can misbehave (`DocumentKnobs`); every request is
 * logged (`fetches`, `fetchCount`) so a test can tell whether the authorization server fetched a
 * document at all.
 *
 * ```ts
 * const metadata = await ClientMetadataServer.start({ tls: ca });
 * const clientId = metadata.serve('/clients/claude.json', { client_name: 'Claude', redirect_uris: [receiver.redirectUri] });
 * const slow = metadata.serve('/clients/slow.json', { redirect_uris: [receiver.redirectUri] }, { delayMs: 5000 });
 * ```
 */
export class ClientMetadataServer {
  readonly fetches: MetadataFetch[] = [];
  private readonly routes = new Map<string, Route>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    /** `https://127.0.0.1:<port>` */
    readonly origin: string,
  ) {}

  static async start(options: { tls: TlsMaterial }): Promise<ClientMetadataServer> {
    const server = createServer({ key: options.tls.key, cert: options.tls.cert });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const metadata = new ClientMetadataServer(server, `https://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => {
      const path = new URL(req.url ?? '/', metadata.origin).pathname;
      metadata.fetches.push({
        path,
        at: Date.now(),
        userAgent: req.headers['user-agent'],
        accept: req.headers['accept'],
      });
      const route = metadata.routes.get(path);
      if (!route) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
        return;
      }
      const answer = (): void => {
        if (res.destroyed) return;
        const { knobs } = route;
        if (knobs.redirectTo) {
          res.writeHead(302, { location: knobs.redirectTo }).end();
          return;
        }
        const body = metadata.body(path, route);
        res
          .writeHead(knobs.status ?? 200, {
            'content-type': knobs.contentType ?? 'application/json',
            'content-length': String(body.length),
            ...(knobs.cacheControl ? { 'cache-control': knobs.cacheControl } : {}),
          })
          .end(body);
      };
      const delay = route.knobs.delayMs ?? 0;
      if (delay <= 0) return answer();
      const timer = setTimeout(() => {
        metadata.timers.delete(timer);
        answer();
      }, delay);
      metadata.timers.add(timer);
    });
    return metadata;
  }

  /** The URL a path is served at (its `client_id`). */
  urlFor(path: string): string {
    return `${this.origin}${path.startsWith('/') ? path : `/${path}`}`;
  }

  /**
   * Serves `document` at `path` (replacing what was there) and returns its URL. `client_id`
   * defaults to that URL; `knobs` make it misbehave.
   */
  serve(path: string, document: ClientMetadataDocument, knobs: DocumentKnobs = {}): string {
    const url = this.urlFor(path);
    this.routes.set(new URL(url).pathname, { document, knobs });
    return url;
  }

  /** A document padded to `bytes` (default 100 KB). */
  serveOversize(path: string, document: ClientMetadataDocument, bytes = 100_000): string {
    return this.serve(path, document, { padToBytes: bytes });
  }

  /** A document answered after `delayMs`. */
  serveSlow(path: string, document: ClientMetadataDocument, delayMs: number): string {
    return this.serve(path, document, { delayMs });
  }

  /** A `302` to `target` (e.g. another document, or a private address). */
  serveRedirect(path: string, target: string): string {
    return this.serve(path, { redirect_uris: [] }, { redirectTo: target });
  }

  /** A document whose `client_id` is `otherClientId` instead of its own URL (default: another path here). */
  serveMismatchedClientId(path: string, document: ClientMetadataDocument, otherClientId?: string): string {
    return this.serve(path, document, { clientId: otherClientId ?? this.urlFor('/clients/someone-else.json') });
  }

  /** Stops serving `path` (404 from now on). */
  remove(path: string): void {
    this.routes.delete(new URL(this.urlFor(path)).pathname);
  }

  /** How many requests `path` received. */
  fetchCount(path: string): number {
    const pathname = new URL(this.urlFor(path)).pathname;
    return this.fetches.filter((entry) => entry.path === pathname).length;
  }

  /** The exact body `path` answers with (for asserting sizes). */
  bodyOf(path: string): Buffer {
    const pathname = new URL(this.urlFor(path)).pathname;
    const route = this.routes.get(pathname);
    if (!route) throw new Error(`ClientMetadataServer: nothing served at ${path}`);
    return this.body(pathname, route);
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private body(pathname: string, { document, knobs }: Route): Buffer {
    if (knobs.rawBody !== undefined) return Buffer.from(knobs.rawBody);
    const { client_id: _ignored, ...rest } = document;
    const clientId = knobs.clientId ?? document.client_id ?? `${this.origin}${pathname}`;
    const json: Record<string, unknown> = knobs.omitClientId ? { ...rest } : { client_id: clientId, ...rest };
    let body = Buffer.from(JSON.stringify(json));
    if (knobs.padToBytes && body.length < knobs.padToBytes) {
      const unpadded = Buffer.byteLength(JSON.stringify({ ...json, _padding: '' }));
      body = Buffer.from(JSON.stringify({ ...json, _padding: 'x'.repeat(Math.max(0, knobs.padToBytes - unpadded)) }));
    }
    return body;
  }
}
