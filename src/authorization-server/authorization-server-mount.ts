import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuthorizationServerPath, isAuthorizationServerPath } from './authorization-server-routes.js';
import type { FastifyLike, FastifyReplyLike, FastifyRequestLike } from '../transport/http/fastify-binding.js';
import type { AuthorizationRequest, AuthorizationServerHandler } from './authorization-server-handler.js';

type Next = () => void;
interface ExpressLike {
  use(handler: (req: IncomingMessage, res: ServerResponse, next: Next) => void): unknown;
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
      const raw: AuthorizationRequest = request.raw;
      if (request.body !== undefined) raw.body = request.body;
      void handler.handle(raw, reply.raw);
    };
    for (const url of [AuthorizationServerPath.Metadata, AuthorizationServerPath.Discovery, '/oauth/*']) {
      scope.route({ method: METHODS, url, handler: forward });
    }
  });
}
