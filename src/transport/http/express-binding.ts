import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpHttpHandler } from './mcp-http-handler.js';
import type { ServerCardEndpoint } from './server-card-endpoint.js';

/**
 * An Express request: Express puts `ip` on it, the client's address honouring the app's `trust proxy`
 * setting (the connection's peer unless it is set).
 */
interface ExpressRequest extends IncomingMessage {
  readonly ip?: string;
}
type Handler = (req: ExpressRequest, res: ServerResponse) => void;
type ErrorHandler = (error: unknown, req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

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
 * which answers them as JSON-RPC errors (-32700, 413) instead of Express's HTML pages. The client's
 * address is Express's `req.ip` (read when a per-caller bound needs it), so the app's `trust proxy`
 * setting decides whether a forwarded one counts. The server's card, when it has one, answers every
 * method at its own path.
 */
export function bindExpress(app: ExpressApp, path: string, handler: McpHttpHandler, card?: ServerCardEndpoint): void {
  if (card) app.all(card.path, (req, res) => card.handle(req, res));
  app.post(path, (req, res) => void handler.handle(req, res, req, bodyIfParsed(req)));
  app.get(path, (req, res) => void handler.handleSession(req, res, req));
  app.delete(path, (req, res) => void handler.handleSession(req, res, req));
  app.all(path, (req, res) => handler.methodNotAllowed(req, res, req));
  app.use(path, (error, req, res, next) => {
    if (res.headersSent) return next(error);
    void handler.parserFailed(req, res, req, error);
  });
}

/** A body some earlier middleware already consumed and parsed. */
function bodyIfParsed(req: IncomingMessage): unknown {
  return req.readableEnded ? (req as IncomingMessage & { body?: unknown }).body : undefined;
}
