import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpHttpHandler } from './mcp-http-handler.js';
import type { ServerCardEndpoint } from './server-card-endpoint.js';

/**
 * The part of a Fastify request the bindings use. `ip` is the client's address honouring the
 * instance's `trustProxy` option (the connection's peer unless it is set); it lives on Fastify's
 * request, not on `raw`.
 */
export interface FastifyRequestLike {
  raw: IncomingMessage;
  ip: string | undefined;
  body?: unknown;
}
/** The part of a Fastify reply the bindings use. */
export interface FastifyReplyLike {
  raw: ServerResponse;
  hijack(): void;
}
/** The part of a Fastify instance the bindings use (an encapsulated plugin, a raw-body parser, routes). */
export interface FastifyLike {
  register(plugin: (instance: FastifyLike) => Promise<void>): unknown;
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    parser: (req: unknown, body: Buffer, done: (err: Error | null, body?: Buffer) => void) => void,
  ): void;
  route(options: {
    method: string | string[];
    url: string;
    exposeHeadRoute?: boolean;
    handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => unknown;
    errorHandler?: (error: unknown, request: FastifyRequestLike, reply: FastifyReplyLike) => void;
  }): void;
}

const SESSION_METHODS = ['GET', 'DELETE'];
const OTHER_METHODS = ['PUT', 'PATCH', 'HEAD', 'OPTIONS'];
const CARD_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Mounts the endpoint on Fastify in an encapsulated plugin whose only content parser hands us the
 * raw bytes, so parsing and its errors are ours exactly as on Express; Fastify enforces the body
 * limit and we turn its 413 into a JSON-RPC error. The client's address is Fastify's `request.ip`
 * (read when a per-caller bound needs it), so the instance's `trustProxy` option decides whether a
 * forwarded one counts. The server's card,
 * when it has one, answers every method at its own path.
 */
export function bindFastify(app: FastifyLike, path: string, handler: McpHttpHandler, card?: ServerCardEndpoint): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: handler.maxBodyBytes }, (_req, body, done) =>
      done(null, body),
    );
    scope.route({
      method: 'POST',
      url: path,
      // Not returning handle's promise (it never rejects: every failure is answered): Fastify would
      // chain a `then` on it per request, only to find the reply hijacked.
      handler: (request, reply) => {
        reply.hijack();
        void handler.handle(request.raw, reply.raw, request, request.body ?? Buffer.alloc(0));
      },
      errorHandler: (error, request, reply) => {
        reply.hijack();
        handler.bodyRejected(request.raw, reply.raw, request, error);
      },
    });
    scope.route({
      method: SESSION_METHODS,
      url: path,
      exposeHeadRoute: false,
      handler: (request, reply) => {
        reply.hijack();
        return handler.handleSession(request.raw, reply.raw, request);
      },
    });
    scope.route({
      method: OTHER_METHODS,
      url: path,
      handler: (request, reply) => {
        reply.hijack();
        handler.methodNotAllowed(request.raw, reply.raw, request);
      },
    });
    if (card) {
      scope.route({
        method: CARD_METHODS,
        url: card.path,
        exposeHeadRoute: false,
        handler: (request, reply) => {
          reply.hijack();
          card.handle(request.raw, reply.raw);
        },
      });
    }
  });
}
