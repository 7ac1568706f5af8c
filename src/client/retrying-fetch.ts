/** What the retrying fetch needs to know about its server. */
export interface RetryPolicy {
  /** Attempts after the first. */
  readonly retries: number;
  /** The longest Retry-After waited for. */
  readonly maxRetryDelayMs: number;
}

const DEFAULT_DELAY_MS = 1000;

/** The wait a 503's `Retry-After` asks for (delta seconds or an HTTP date), in ms. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null || header.trim() === '') return DEFAULT_DELAY_MS;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? DEFAULT_DELAY_MS : Math.max(0, date - now);
}

/**
 * A fetch that sends a request again when the server answers HTTP 503, the transient error
 * (-32051: nothing ran, the same request may be sent again), after its `Retry-After`, at most
 * `retries` times and never waiting longer than `maxRetryDelayMs`; then it hands the last 503 to
 * the official client, which raises it.
 */
export function retryingFetch(policy: RetryPolicy, fetchImpl: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetchImpl(input, init);
      if (response.status !== 503 || attempt >= policy.retries || !replayable(init)) return response;
      const delay = retryAfterMs(response.headers.get('retry-after'));
      if (delay > policy.maxRetryDelayMs) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay, init?.signal ?? undefined);
    }
  };
}

/** A body sent as a string (what the official client sends) can be sent again. */
function replayable(init: RequestInit | undefined): boolean {
  return init?.body === undefined || init.body === null || typeof init.body === 'string';
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
