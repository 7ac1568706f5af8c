import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpHttpHandler } from './mcp-http-handler.js';
import type { ServerCardEndpoint } from './server-card-endpoint.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type ErrorHandler = (
  error: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

interface ExpressApp {
  post(path: string, handler: Handler): void;
  get(path: string, handler: Handler): void;
  delete(path: string, handler: Handler): void;
  all(path: string, handler: Handler): void;
  use(path: string, handler: ErrorHandler): void;
}

/**
 * Mounts the endpoint on Express with its public API only. Middleware the application registered
 * (CORS, helmet, ...) and Nest's body parsers run first: a body they parsed is taken as it is (its
 * declared size still checked against `maxBodyBytes`), an unread one is read by the module, and the
 * parsers' own failures (malformed JSON, over their limit) reach the error handler mounted here,
 * which answers them as JSON-RPC errors (-32700, 413) instead of Express's HTML pages. The server's
 * card, when it has one, answers every method at its own path.
 */
export function bindExpress(app: ExpressApp, path: string, handler: McpHttpHandler, card?: ServerCardEndpoint): void {
  if (card) app.all(card.path, (req, res) => card.handle(req, res));
  app.post(path, (req, res) => void handler.handle(req, res, bodyIfParsed(req)));
  app.get(path, (req, res) => void handler.handleSession(req, res));
  app.delete(path, (req, res) => void handler.handleSession(req, res));
  app.all(path, (_req, res) => handler.methodNotAllowed(res));
  app.use(path, (error, req, res, next) => {
    if (res.headersSent) return next(error);
    void handler.parserFailed(req, res, error);
  });
}

/** A body some earlier middleware already consumed and parsed. */
function bodyIfParsed(req: IncomingMessage): unknown {
  return req.readableEnded ? (req as IncomingMessage & { body?: unknown }).body : undefined;
}
