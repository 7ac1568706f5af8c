/**
 * Drives autocannon programmatically: a warm-up run, then a measured run. Latencies are taken
 * from autocannon's per-response event (fractional milliseconds) because its histogram keeps
 * whole milliseconds only, which hides everything below 1 ms.
 */
import autocannon from 'autocannon';

/** A request the load generator repeats verbatim. */
export interface FixedRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * The body holds "[<id>]" as its JSON-RPC id, which each load connection replaces with an id of
   * its own, once. With one request in flight per connection, no two requests in flight on the
   * shared 2025 session have the same id (the SDK's session transport routes answers by id), at no
   * per-request cost to the load generator (autocannon's idReplacement rebuilds every request,
   * which cost a third of the req/s on this 2-core machine). Ids are reused once answered.
   */
  readonly idPerConnection?: boolean;
  /**
   * Bodies to send in place of `body`, each connection its share in turn (prefetched MRTR retries,
   * a fresh token per request); `body` is the first of them, which the probes send.
   */
  readonly pool?: readonly string[];
  /** Something about how the target was driven, printed in the table's note column. */
  readonly note?: string;
  /** A response slower than this counts as a timeout (default 10 s). */
  readonly timeoutSec?: number;
}

export interface LoadSettings {
  readonly connections: number;
  readonly durationSec: number;
  readonly warmupSec: number;
}

export interface LoadResult {
  /** Responses per second over the measured wall-clock time. */
  readonly rps: number;
  readonly responses: number;
  readonly elapsedSec: number;
  readonly latencyMs: {
    readonly mean: number;
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Responses that failed `verify` (only counted when a verifier is given). */
  readonly mismatches: number;
  /** autocannon's own summary, for the JSON output (absent for the custom round loop). */
  readonly autocannon?: {
    readonly requestsAverage: number;
    readonly latencyP50: number;
    readonly latencyP99: number;
    readonly throughputAverage: number;
  };
}

/** Stands for the request id in a FixedRequest body with `idPerConnection`. */
export const ID_PLACEHOLDER = '[<id>]';
let connectionCounter = 0;

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}

/** What autocannon's Client offers a `setupClient` hook (its typings leave these out). */
interface SetupClient {
  setBody(body: string): void;
  setRequests(requests: ReadonlyArray<{ method: string; headers: Record<string, string>; body: string }>): void;
}

/**
 * Per-connection set-up: its own id in place of "[<id>]" (FixedRequest.idPerConnection), or its
 * share of the pool (FixedRequest.pool: connection i sends bodies i, i + n, i + 2n, ... in turn,
 * each prebuilt once by autocannon, so a fresh body per request costs the load generator nothing).
 */
function clientSetup(request: FixedRequest, connections: number): Pick<autocannon.Options, 'setupClient'> {
  const { pool, idPerConnection } = request;
  if (pool && pool.length > 0) {
    let next = 0;
    return {
      setupClient: (client) => {
        const mine = pool.filter((_, i) => i % connections === next % connections);
        const share = mine.length > 0 ? mine : [request.body];
        next++;
        const headers = { ...request.headers };
        (client as unknown as SetupClient).setRequests(share.map((body) => ({ method: 'POST', headers, body })));
      },
    };
  }
  if (!idPerConnection) return {};
  return {
    setupClient: (client) =>
      (client as unknown as SetupClient).setBody(request.body.replaceAll(ID_PLACEHOLDER, `c${++connectionCounter}`)),
  };
}

function once(
  url: string,
  request: FixedRequest,
  settings: LoadSettings,
  durationSec: number,
  verify?: (body: string) => boolean,
) {
  const latencies: number[] = [];
  let non2xx = 0;
  return new Promise<{ result: autocannon.Result; latencies: number[]; non2xx: number; elapsedSec: number }>(
    (resolve, reject) => {
      const options: autocannon.Options = {
        url,
        method: 'POST',
        headers: { ...request.headers },
        body: request.body,
        connections: settings.connections,
        duration: durationSec,
        pipelining: 1,
        timeout: request.timeoutSec ?? 10,
        ...clientSetup(request, settings.connections),
        ...(verify ? { verifyBody: (body: string | Buffer | undefined) => verify(String(body ?? '')) } : {}),
      };
      const started = process.hrtime.bigint();
      const instance = autocannon(options, (error, result) => {
        const elapsedSec = Number(process.hrtime.bigint() - started) / 1e9;
        if (error) reject(error);
        else resolve({ result, latencies, non2xx, elapsedSec });
      });
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
        else non2xx++;
      });
    },
  );
}

/** The warm-up run: same request and connections, results discarded. */
export async function warmUp(url: string, request: FixedRequest, settings: LoadSettings): Promise<void> {
  if (settings.warmupSec > 0) await once(url, request, settings, settings.warmupSec);
}

/** The measured run of one fixed request against one URL (call {@link warmUp} first). */
export async function measure(
  url: string,
  request: FixedRequest,
  settings: LoadSettings,
  verify?: (body: string) => boolean,
): Promise<LoadResult> {
  const run = await once(url, request, settings, settings.durationSec, verify);
  const sorted = Float64Array.from(run.latencies).sort();
  const sum = run.latencies.reduce((acc, v) => acc + v, 0);
  const responses = run.latencies.length + run.non2xx;
  const result = run.result as autocannon.Result & { mismatches?: number };
  return {
    rps: responses / run.elapsedSec,
    responses,
    elapsedSec: run.elapsedSec,
    latencyMs: {
      mean: run.latencies.length > 0 ? sum / run.latencies.length : Number.NaN,
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      p99: percentile(sorted, 0.99),
      max: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
    },
    non2xx: run.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches ?? 0,
    autocannon: {
      requestsAverage: result.requests.average,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
      throughputAverage: result.throughput.average,
    },
  };
}
