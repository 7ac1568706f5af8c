import type { ServerResponse } from 'node:http';
import { McpCallAbortedError } from '../../protocol/mcp-call-aborted.error.js';

const aborts = new WeakMap<ServerResponse, AbortController>();

/**
 * Aborted when the client goes away before the answer was written. Made on first use: most calls
 * finish without anyone asking, and an AbortController plus a listener per request is not free.
 */
export function disconnectSignal(res: ServerResponse): AbortSignal {
  return controllerOf(res).signal;
}

/** Aborts the call answering on `res` with `reason`, e.g. before the server drops a client that fell behind. */
export function abortResponse(res: ServerResponse, reason: McpCallAbortedError): void {
  controllerOf(res).abort(reason);
}

function controllerOf(res: ServerResponse): AbortController {
  const known = aborts.get(res);
  if (known) return known;
  const controller = new AbortController();
  aborts.set(res, controller);
  const onClose = () => {
    if (!res.writableFinished)
      controller.abort(new McpCallAbortedError('The client closed the connection', 'disconnected'));
  };
  if (res.destroyed) onClose();
  else res.once('close', onClose);
  return controller;
}
