import { type Client, isInputRequiredResult, specTypeSchemas } from '@modelcontextprotocol/client';
import type { McpClientConnection } from '../client/mcp-client-connection.js';
import { mcpCallScope } from '../mrtr/mcp-call-scope.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import type { InputRequest } from '../protocol/wire-types.js';
import type { ResolvedMcpGatewayUpstream } from './mcp-gateway.options.js';
import { McpUpstreamError } from './mcp-upstream.error.js';
import { McpUpstreamUnavailableException } from './mcp-upstream-unavailable.exception.js';
import { upstreamFailure } from './upstream-failure.js';
import { inUpstreamSpan } from './upstream-span.js';
import { WaitingUpstreamCall } from './waiting-upstream-call.js';

/** The methods whose upstream answer may be a question for the user. */
export type RelayedMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/**
 * The spec's schema of each relayed method's result, given to the client's `request()`: the same
 * check it makes by default, without the per-call lookup (a failing probe parse) that finds it.
 */
const RESULT_SCHEMAS = {
  'tools/call': specTypeSchemas.CallToolResult,
  'prompts/get': specTypeSchemas.GetPromptResult,
  'resources/read': specTypeSchemas.ReadResourceResult,
} as const;

/** More rounds than this in one upstream flow is an upstream that never finishes. */
const MAX_ROUNDS = 16;
/** How many 2025-era sessions of completed calls are kept for the next calls, and for how long. */
const IDLE_SESSIONS = 8;
const IDLE_SESSION_MS = 60_000;

type UpstreamResult = Record<string, unknown>;

/**
 * Sends the calls of one upstream and carries its questions to the downstream client, through the
 * call's own replay session (so a 2026-07-28 downstream gets `input_required`, a 2025-era one a
 * pushed request):
 *
 * - 2026-07-28 upstream: each upstream round's answer is computed once per flow (`once`), so it
 *   rides, with the upstream's `requestState`, sealed inside ours: the gateway keeps nothing, any
 *   node with the same secrets serves the next round, and no upstream round runs twice.
 * - 2025-era upstream: the call waits upstream while the user answers; it lives on this node
 *   ({@link WaitingUpstreamCall}, counted in `maxConcurrentCalls`, each question `answerTimeoutMs`), on
 *   a session of its own (kept for the next call when it completes). A round that reaches another
 *   node, or this node after a restart or the timeout, is a tool error (`flow-lost`): the user
 *   calls the tool again.
 */
export class UpstreamRelay {
  private active = 0;
  private stopped = false;
  private readonly waiting = new Map<string, WaitingUpstreamCall>();
  /** 2025-era sessions free for the next call, and the call each busy session serves. */
  private readonly idle: Client[] = [];
  private readonly idleTimers = new WeakMap<Client, NodeJS.Timeout>();
  private readonly sessionCalls = new Map<Client, WaitingUpstreamCall>();

  constructor(
    readonly upstream: ResolvedMcpGatewayUpstream,
    private readonly connection: McpClientConnection,
    /** Told of the shared connection on every call (the gateway watches a new one for list changes). */
    private readonly onClient: (client: Client) => void = () => undefined,
  ) {}

  /** How many of this upstream's calls wait for a user's answer on this node. */
  get waitingCalls(): number {
    return this.waiting.size;
  }

  /** Sends `method` upstream from inside a downstream call and returns the upstream's final result. */
  async relay(method: RelayedMethod, params: UpstreamResult): Promise<UpstreamResult> {
    const session = currentSession();
    const client = await this.client();
    if (client.getProtocolEra() === 'legacy') return this.relayWaiting(session, method, params);
    let result = await session.once(() => this.send(client, method, params));
    for (let round = 1; isInputRequiredResult(result); round++) {
      if (round > MAX_ROUNDS) {
        throw new McpUpstreamError(
          this.upstream.name,
          'failed',
          `${method}: more than ${MAX_ROUNDS} rounds of questions`,
        );
      }
      const asked = Object.entries((result.inputRequests ?? {}) as Record<string, InputRequest>);
      const answers = session.ask(asked.map(([, request]) => ({ request })));
      const inputResponses = Object.fromEntries(asked.map(([key], i) => [key, answers[i]]));
      const retry = {
        ...params,
        inputResponses,
        ...(result.requestState !== undefined && { requestState: result.requestState }),
      };
      result = await session.once(() => this.send(client, method, retry));
    }
    return result;
  }

  /** Cancels every waiting call and ends the idle sessions (the application shuts down). */
  abandonAll(): void {
    this.stopped = true;
    for (const call of [...this.waiting.values()]) call.abandon(new Error('the application is shutting down'));
    for (const client of this.idle.splice(0)) {
      clearTimeout(this.idleTimers.get(client));
      void endSession(client);
    }
  }

  private async client(): Promise<Client> {
    let client: Client;
    try {
      client = await this.connection.client();
    } catch (error) {
      throw upstreamFailure(this.upstream.name, 'connect', error);
    }
    this.onClient(client);
    return client;
  }

  /**
   * One request upstream, bounded in time, size and concurrency, in its CLIENT span
   * ({@link inUpstreamSpan}); an `input_required` answer is returned as is.
   */
  private async send(
    client: Client,
    method: RelayedMethod,
    params: UpstreamResult,
    waiting?: { signal: AbortSignal; timeout: number },
  ): Promise<UpstreamResult> {
    const { name, maxConcurrentCalls, maxResultChars } = this.upstream;
    const timeoutMs = waiting?.timeout ?? this.upstream.timeoutMs;
    if (this.active >= maxConcurrentCalls) {
      throw new McpUpstreamUnavailableException(name, `is already running ${maxConcurrentCalls} calls of this server`);
    }
    return inUpstreamSpan(client, this.connection.url, method, params, async (sent) => {
      this.active++;
      let result: UpstreamResult;
      try {
        result = (await client.request({ method, params: sent } as never, RESULT_SCHEMAS[method], {
          allowInputRequired: true,
          timeout: timeoutMs,
          ...(waiting && { signal: waiting.signal }),
        })) as UpstreamResult;
      } catch (error) {
        throw upstreamFailure(name, method, error);
      } finally {
        this.active--;
      }
      const size = JSON.stringify(result).length;
      if (size > maxResultChars) {
        throw new McpUpstreamError(
          name,
          'too-large',
          `${method}: the answer (${size} characters) exceeds ${maxResultChars}`,
        );
      }
      return result;
    });
  }

  /** A call to a 2025-era upstream, whose questions come pushed while it waits (see the class). */
  private async relayWaiting(
    session: ReplaySession,
    method: RelayedMethod,
    params: UpstreamResult,
  ): Promise<UpstreamResult> {
    let fresh = false;
    // Marks the flow as begun: a later round (fresh stays false) must find its waiting call here.
    await session.once(() => {
      fresh = true;
      return 1;
    });
    const flowId = session.flowId;
    let call = this.waiting.get(flowId);
    if (!call) {
      if (!fresh) {
        throw new McpUpstreamError(
          this.upstream.name,
          'flow-lost',
          `${method}: the upstream call this answer was for is no longer waiting (it ran on another node, ` +
            'this node restarted, or it waited too long); call it again',
        );
      }
      call = await this.begin(flowId, method, params);
    }
    for (let index = 0; ; index++) {
      const event = await call.event(index);
      if (event.kind === 'done') return event.result;
      if (event.kind === 'failed') throw event.error;
      const [answer] = session.ask([{ request: event.request }]);
      call.answer(index, answer!);
    }
  }

  private async begin(flowId: string, method: RelayedMethod, params: UpstreamResult): Promise<WaitingUpstreamCall> {
    const { name, maxConcurrentCalls, answerTimeoutMs, timeoutMs } = this.upstream;
    if (this.active >= maxConcurrentCalls) {
      throw new McpUpstreamUnavailableException(name, `is already running ${maxConcurrentCalls} calls of this server`);
    }
    const client = await this.takeSession();
    const call = new WaitingUpstreamCall(
      {
        workTimeoutMs: timeoutMs,
        answerTimeoutMs,
        timedOut: (waitingForAnswer) =>
          waitingForAnswer
            ? new McpUpstreamError(name, 'flow-lost', `${method}: no answer to the upstream's question in time`)
            : new McpUpstreamError(name, 'timeout', `${method}: no answer in time`),
      },
      (reusable) => {
        if (this.waiting.get(flowId) === call) this.waiting.delete(flowId);
        this.sessionCalls.delete(client);
        this.releaseSession(client, reusable);
      },
    );
    this.waiting.set(flowId, call);
    this.sessionCalls.set(client, call);
    // Waits while the user answers: each question is bounded by answerTimeoutMs, the work between
    // them by timeoutMs, the whole call by that many rounds of it.
    this.send(client, method, params, { signal: call.signal, timeout: answerTimeoutMs * MAX_ROUNDS }).then(
      (result) => call.settle({ kind: 'done', result }),
      (error: unknown) => call.settle({ kind: 'failed', error }),
    );
    return call;
  }

  /**
   * A 2025-era session for one call: an idle one a completed call left, else a new one. Its
   * `elicitation/create` handler asks the call the session serves at the time.
   */
  private async takeSession(): Promise<Client> {
    for (let idle = this.idle.pop(); idle; idle = this.idle.pop()) {
      clearTimeout(this.idleTimers.get(idle));
      if (idle.transport !== undefined) return idle;
    }
    let client: Client;
    try {
      client = await this.connection.open();
    } catch (error) {
      throw upstreamFailure(this.upstream.name, 'connect', error);
    }
    try {
      client.setRequestHandler('elicitation/create', (request) => {
        const call = this.sessionCalls.get(client);
        if (!call) throw new Error('No call of this session is waiting for an answer');
        return call.ask({ method: 'elicitation/create', params: request.params } as InputRequest) as Promise<never>;
      });
    } catch {
      void endSession(client);
      throw new McpUpstreamError(
        this.upstream.name,
        'failed',
        `the client "${this.upstream.client}" must declare elicitation (clientOptions.capabilities.elicitation) ` +
          'for the upstream to ask questions',
      );
    }
    return client;
  }

  /** Keeps a session a completed call used for the next call (a few, for a while), else ends it. */
  private releaseSession(client: Client, reusable: boolean): void {
    if (!reusable || this.stopped || this.idle.length >= IDLE_SESSIONS) {
      void endSession(client);
      return;
    }
    this.idle.push(client);
    const timer = setTimeout(() => {
      const index = this.idle.indexOf(client);
      if (index >= 0) this.idle.splice(index, 1);
      void endSession(client);
    }, IDLE_SESSION_MS);
    timer.unref();
    this.idleTimers.set(client, timer);
  }
}

/** Ends a 2025-era session upstream (HTTP DELETE, bounded), then its connection. */
async function endSession(client: Client): Promise<void> {
  const transport = client.transport as { terminateSession?: () => Promise<void> } | undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    transport?.terminateSession?.().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, 1000))),
  ]).finally(() => clearTimeout(timer));
  await client.close().catch(() => undefined);
}

function currentSession(): ReplaySession {
  const session = mcpCallScope.getStore()?.session;
  if (session === undefined) throw new Error('An upstream call relayed outside an MCP call');
  return session;
}
