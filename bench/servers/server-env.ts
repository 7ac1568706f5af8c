/** Environment every benchmark server reads, and the line it prints once it is listening. */
import { DEFAULT_HOST, toolCountFromEnv } from '../shared/bench-spec.js';

export interface ServerEnv {
  readonly host: string;
  readonly port: number;
  readonly tools: number;
}

export function readServerEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const port = Number(env['PORT']);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`PORT must be a TCP port, got ${env['PORT']}`);
  }
  const host = env['HOST'] ?? DEFAULT_HOST;
  if (host !== '127.0.0.1' && host !== '::1' && host !== 'localhost') {
    throw new Error(`benchmark servers bind to loopback only, got HOST=${host}`);
  }
  return { host, port, tools: toolCountFromEnv(env) };
}

/** Printed on stdout when the server accepts connections; the harness also polls the port. */
export function announceListening(name: string, env: ServerEnv): void {
  process.stdout.write(`${name} listening on http://${env.host}:${env.port} with ${env.tools} tools\n`);
}

/** Exit cleanly on the harness's SIGTERM; `close` gets a short grace period. */
export function exitOnSignal(close: () => Promise<unknown> | void): void {
  const stop = () => {
    const timer = setTimeout(() => process.exit(0), 1000);
    timer.unref();
    Promise.resolve()
      .then(close)
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Runs an async `main` and exits non-zero with the error on stderr if it rejects. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
