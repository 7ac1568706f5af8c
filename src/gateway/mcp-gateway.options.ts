import { attachedServer } from '../mcp-servers.js';

/**
 * One MCP server mounted into this application's server: its tools, prompts, resources and
 * resource templates are served as if they were the application's own, named `<prefix>_<name>`.
 *
 * @publicApi
 */
export interface McpGatewayUpstream {
  /** The upstream's name in logs, errors and the health report. Default: `client`. */
  name?: string;
  /** The server of `McpClientModule.forRoot({ servers })` to call: its `url`, `auth`, `timeoutMs`, retries. */
  client: string;
  /**
   * Put before every mounted name, with `_`: the upstream's tool `forecast` is served as
   * `weather_forecast`. Letters, digits, `-` and `.`; unique among the upstreams.
   */
  prefix: string;
  /** Only these of the upstream's tools and prompts (by the upstream's name; default: all). */
  include?: readonly string[];
  /** Not these of the upstream's tools and prompts (by the upstream's name). */
  exclude?: readonly string[];
  /**
   * How long one request to the upstream may take, in ms, before the caller gets an error (a tool
   * error for a tool). For a 2025-era upstream that asks questions, the time it waits for the user's
   * answers does not count (see `answerTimeoutMs`). Default 30000.
   */
  timeoutMs?: number;
  /**
   * How many calls this application may have running at the upstream at once; one more gets the
   * transient error (-32051, HTTP 503, `Retry-After`). A call to a 2025-era upstream counts until it
   * ends, also while it waits for the user's answers (it holds a session on this node). Default 32.
   */
  maxConcurrentCalls?: number;
  /**
   * The largest upstream result passed on, in characters of JSON; a larger one is a tool error (a
   * JSON-RPC error for prompts and resources). Checked once the answer is read: what is read off the
   * wire is bounded while it arrives by the client's `maxResponseBytes` (default 16 MiB), an answer
   * past that is cut off and gets the same error. Default 1 000 000.
   */
  maxResultChars?: number;
  /**
   * How long a call to a 2025-era upstream waits for the user's answer to one of its questions, in
   * ms, before it is ended (the upstream's call is cancelled). Default 300000 (5 minutes).
   */
  answerTimeoutMs?: number;
}

/**
 * Options of `McpGatewayModule.forRoot`, or what the factory of `McpGatewayModule.forRootAsync`
 * returns (`useFactory`, or `createMcpGatewayOptions()` of a `useClass` / `useExisting` provider).
 * They are checked when the application starts, the same way for both.
 *
 * @publicApi
 */
export interface McpGatewayOptions {
  /** The servers to mount, each a server of `McpClientModule` under a prefix of its own. */
  upstreams: readonly McpGatewayUpstream[];
  /**
   * The `path` of the application's MCP server the upstreams are mounted into. Default: the
   * global server.
   */
  server?: string;
  /**
   * How often each upstream is checked, in ms: listed when it could not be (it was down at
   * startup) or when its connection was renewed, and a 2025-era one listed again (its pushed
   * `list_changed` is lost while its stream is down). Default 10000.
   */
  checkIntervalMs?: number;
}

/** One upstream after defaults and checks. */
export interface ResolvedMcpGatewayUpstream {
  readonly name: string;
  readonly client: string;
  readonly prefix: string;
  readonly include?: ReadonlySet<string>;
  readonly exclude: ReadonlySet<string>;
  readonly timeoutMs: number;
  readonly maxConcurrentCalls: number;
  readonly maxResultChars: number;
  readonly answerTimeoutMs: number;
}

/** The gateway's options after defaults and checks. */
export interface ResolvedMcpGatewayOptions {
  readonly upstreams: readonly ResolvedMcpGatewayUpstream[];
  readonly server?: string;
  readonly checkIntervalMs: number;
}

const PREFIX = /^[A-Za-z0-9][A-Za-z0-9.-]{0,31}$/;

/** Thrown at startup when the options are wrong. */
export function resolveMcpGatewayOptions(options: McpGatewayOptions): ResolvedMcpGatewayOptions {
  if (options === null || typeof options !== 'object' || !Array.isArray(options.upstreams)) {
    throw new Error('McpGatewayModule needs `upstreams`: an array of { client, prefix }');
  }
  const prefixes = new Set<string>();
  const upstreams = options.upstreams.map((upstream, index): ResolvedMcpGatewayUpstream => {
    const fail = (message: string): never => {
      throw new Error(`McpGatewayModule: upstreams[${index}]: ${message}`);
    };
    if (typeof upstream?.client !== 'string' || upstream.client === '') {
      fail('`client` names a server of McpClientModule');
    }
    if (typeof upstream.prefix !== 'string' || !PREFIX.test(upstream.prefix)) {
      fail('`prefix` is 1 to 32 letters, digits, `-` and `.`');
    }
    if (prefixes.has(upstream.prefix)) fail(`the prefix "${upstream.prefix}" is used twice`);
    prefixes.add(upstream.prefix);
    const positive = (value: number | undefined, fallback: number, key: string): number => {
      const resolved = value ?? fallback;
      if (!Number.isInteger(resolved) || resolved < 1) fail(`\`${key}\` must be a positive integer`);
      return resolved;
    };
    return {
      name: upstream.name ?? upstream.client,
      client: upstream.client,
      prefix: upstream.prefix,
      ...(upstream.include !== undefined && { include: new Set<string>(upstream.include) }),
      exclude: new Set<string>(upstream.exclude ?? []),
      timeoutMs: positive(upstream.timeoutMs, 30_000, 'timeoutMs'),
      maxConcurrentCalls: positive(upstream.maxConcurrentCalls, 32, 'maxConcurrentCalls'),
      maxResultChars: positive(upstream.maxResultChars, 1_000_000, 'maxResultChars'),
      answerTimeoutMs: positive(upstream.answerTimeoutMs, 300_000, 'answerTimeoutMs'),
    };
  });
  const checkIntervalMs = options.checkIntervalMs ?? 10_000;
  if (!Number.isInteger(checkIntervalMs) || checkIntervalMs < 1) {
    throw new Error('McpGatewayModule: `checkIntervalMs` must be a positive integer');
  }
  const server = attachedServer(options.server, 'McpGatewayModule');
  return { upstreams, ...(server !== undefined && { server }), checkIntervalMs };
}
