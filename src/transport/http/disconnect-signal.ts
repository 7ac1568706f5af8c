import type { ServerResponse } from 'node:http';
import { McpCallAbortedError } from '../../protocol/mcp-call-aborted.error.js';

const signals = new WeakMap<ServerResponse, AbortSignal>();

/**
 * Aborted when the client goes away before the answer was written. Made on first use: most calls
 * finish without anyone asking, and an AbortController plus a listener per request is not free.
 */
export function disconnectSignal(res: ServerResponse): AbortSignal {
  let signal = signals.get(res);
  if (!signal) {
    const abort = new AbortController();
    signal = abort.signal;
    signals.set(res, signal);
    const onClose = () => {
      if (!res.writableFinished)
        abort.abort(new McpCallAbortedError('The client closed the connection', 'disconnected'));
    };
    if (res.destroyed) onClose();
    else res.once('close', onClose);
  }
  return signal;
}
