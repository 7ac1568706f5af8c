import { AsyncLocalStorage } from 'node:async_hooks';
import { McpClientError } from './mcp-client.error.js';

/**
 * Who is told when an answer is cut off: set around each request by `BoundedClient`, read by the
 * fetch when the request is sent, so that the request fails at once instead of waiting for an
 * answer that will not come (the official client does not fail a request whose SSE stream broke).
 */
export const responseCutOffScope = new AsyncLocalStorage<(maxBytes: number) => void>();

/** Takes each chunk of a body; true once the message being read has passed the bound. */
export type MessageCounter = (chunk: Uint8Array) => boolean;

const LF = 0x0a;
const CR = 0x0d;

/** The whole body is one message (a JSON answer, a batch, an error page). */
export function bodyCounter(maxBytes: number): MessageCounter {
  let total = 0;
  return (chunk) => (total += chunk.byteLength) > maxBytes;
}

/**
 * Each event of an SSE stream is one message: the count starts again after the blank line that
 * ends an event (lines end with LF, CR or CRLF), so a long stream of small events is never cut.
 */
export function eventCounter(maxBytes: number): MessageCounter {
  let inEvent = 0;
  let lineEmpty = true;
  let afterCR = false;
  return (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === LF && afterCR) {
        afterCR = false;
        continue;
      }
      afterCR = byte === CR;
      if (byte === LF || byte === CR) {
        if (lineEmpty) inEvent = 0;
        lineEmpty = true;
      } else {
        lineEmpty = false;
      }
      if (++inEvent > maxBytes) return true;
    }
    return false;
  };
}

/**
 * `source`, read only as fast as its reader asks (nothing is read ahead); once `passes` says the
 * message has passed the bound, the source is cancelled (the rest is not read and the connection
 * is closed) and the body fails with the error `cutOff` gives.
 */
export function boundedBody(
  source: ReadableStream<Uint8Array>,
  passes: MessageCounter,
  cutOff: () => Error,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (passes(value)) {
          const error = cutOff();
          void reader.cancel(error).catch(() => undefined);
          return controller.error(error);
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * A fetch whose answers are bounded in size while they arrive: at most `maxBytes` in a body, or in
 * each event of an SSE body. Past it the rest is not read, the request being sent is told (see
 * {@link responseCutOffScope}), and reading the body fails with `McpClientError` (`too-large`).
 */
export function sizeBoundedFetch(server: string, maxBytes: number, fetchImpl: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const tell = responseCutOffScope.getStore();
    const response = await fetchImpl(input, init);
    if (response.body === null) return response;
    const events = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
    const body = boundedBody(response.body, (events ? eventCounter : bodyCounter)(maxBytes), () => {
      tell?.(maxBytes);
      return new McpClientError(server, 'too-large', `an answer is larger than ${maxBytes} bytes (maxResponseBytes)`);
    });
    const bounded = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // Where a redirect led, for the official client's redirect errors.
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}
