// The seam through which integrations report on what they depend on (Redis, the task queue), so
// that `@mocapi/nestjs/terminus` reads them without importing another integration: each fills its
// own slot, and the health indicator injects the slots optionally.

/**
 * What one probe found: up, or down with the reason a dashboard shows.
 */
export type McpHealthProbeResult = { readonly up: true } | { readonly up: false; readonly reason: string };

/**
 * A readiness check an integration contributes, read by `McpHealthIndicator`
 * (`@mocapi/nestjs/terminus`). `check` never throws and settles within its own bound.
 */
export interface McpHealthProbe {
  /** The part checked, as the health details name it (`'redis'`, `'taskQueue'`). */
  readonly component: string;
  /** Up, or down with the reason. */
  check(): Promise<McpHealthProbeResult>;
}

/**
 * Integration slot for the {@link McpHealthProbe} of `McpRedisModule`: Redis answers PING.
 */
export const INTEGRATION_REDIS_HEALTH_PROBE = Symbol.for('mocapi:integration-redis-health-probe');
/**
 * Integration slot for the {@link McpHealthProbe} of `McpTaskQueueModule`: the queue's Redis answers PING.
 */
export const INTEGRATION_TASK_QUEUE_HEALTH_PROBE = Symbol.for('mocapi:integration-task-queue-health-probe');

/**
 * Integration slot for the {@link McpHealthProbe} of `McpGatewayModule`: every upstream is mounted and
 * answers ping.
 */
export const INTEGRATION_GATEWAY_HEALTH_PROBE = Symbol.for('mocapi:integration-gateway-health-probe');

/** How long a probe waits for its answer by default. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * A probe of `component` that is up when `ping` resolves within `timeoutMs`, and down, with the
 * error's message or the timeout as its reason, otherwise.
 */
export function pingProbe(
  component: string,
  ping: () => Promise<unknown>,
  timeoutMs: number = PROBE_TIMEOUT_MS,
): McpHealthProbe {
  return {
    component,
    async check(): Promise<McpHealthProbeResult> {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<McpHealthProbeResult>((resolve) => {
        timer = setTimeout(() => resolve({ up: false, reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
      });
      const answered = Promise.resolve()
        .then(ping)
        .then(
          (): McpHealthProbeResult => ({ up: true }),
          (error: unknown): McpHealthProbeResult => ({
            up: false,
            reason: error instanceof Error ? error.message : String(error),
          }),
        );
      try {
        return await Promise.race([answered, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
