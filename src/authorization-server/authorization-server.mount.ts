import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuthorizationServerPath, isAuthorizationServerPath } from './authorization-server.routes.js';
import type { AuthorizationRequest, AuthorizationServerHandler } from './authorization-server.handler.js';

type Next = () => void;
interface ExpressLike {
  use(handler: (req: IncomingMessage, res: ServerResponse, next: Next) => void): unknown;
}
interface FastifyRequestLike {
  raw: AuthorizationRequest;
  body?: unknown;
}
interface FastifyReplyLike {
  raw: ServerResponse;
  hijack(): void;
}
interface FastifyLike {
  register(plugin: (instance: FastifyLike) => Promise<void>): unknown;
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    parser: (req: unknown, body: Buffer, done: (err: Error | null, body?: Buffer) => void) => void,
  ): void;
  route(options: {
    method: string[];
    url: string;
    handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => unknown;
  }): void;
}

/** The largest request body the authorization server takes (a registration, a token request). */
const MAX_BODY_BYTES = 64 * 1024;
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'OPTIONS'];

/** Routes the authorization server's paths to it on Express (a middleware ahead of the 404 handler). */
export function mountOnExpress(app: ExpressLike, handler: AuthorizationServerHandler): void {
  app.use((req, res, next) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    if (!isAuthorizationServerPath(path)) return next();
    void handler.handle(req, res);
  });
}

/**
 * Routes them on Fastify, in an encapsulated plugin whose only content parser keeps the raw bytes
 * (oidc-provider parses the body itself, from `req.body`).
 */
export function mountOnFastify(app: FastifyLike, handler: AuthorizationServerHandler): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    const forward = (request: FastifyRequestLike, reply: FastifyReplyLike) => {
      reply.hijack();
      if (request.body !== undefined) request.raw.body = request.body;
      void handler.handle(request.raw, reply.raw);
    };
    for (const url of [AuthorizationServerPath.Metadata, AuthorizationServerPath.Discovery, '/oauth/*']) {
      scope.route({ method: METHODS, url, handler: forward });
    }
  });
}
