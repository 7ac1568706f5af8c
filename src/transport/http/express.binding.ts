import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpHttpHandler } from './mcp-http.handler.js';

interface ExpressLayer {
  name?: string;
}
interface ExpressApp {
  post(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  get(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  delete(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  all(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  router?: { stack: ExpressLayer[] };
  _router?: { stack: ExpressLayer[] };
}

const BODY_PARSERS: ReadonlySet<string | undefined> = new Set(['jsonParser', 'urlencodedParser']);

/**
 * Mounts the endpoint on Express. Our route is moved ahead of the body parsers Nest installs, so
 * the body limit, the JSON parsing and their errors (-32700, 413) are ours; middleware the
 * application registered earlier (CORS, helmet, ...) still runs first.
 */
export function bindExpress(app: ExpressApp, path: string, handler: McpHttpHandler): void {
  const stack = (app.router ?? app._router)?.stack;
  const before = stack?.length ?? 0;
  app.post(path, (req, res) => void handler.handle(req, res, bodyIfParsed(req)));
  app.get(path, (req, res) => void handler.handleSession(req, res));
  app.delete(path, (req, res) => void handler.handleSession(req, res));
  app.all(path, (_req, res) => handler.methodNotAllowed(res));
  if (!stack) return;
  const added = stack.splice(before);
  const firstParser = stack.findIndex((layer) => BODY_PARSERS.has(layer.name));
  stack.splice(firstParser === -1 ? stack.length : firstParser, 0, ...added);
}

/** A body some earlier middleware already consumed and parsed. */
function bodyIfParsed(req: IncomingMessage): unknown {
  return req.readableEnded ? (req as IncomingMessage & { body?: unknown }).body : undefined;
}
