/**
 * The load loop of `legacy-elicit`, which autocannon cannot drive: one round is a 2025-era
 * `tools/call confirm_add` whose answer is an SSE stream, on which the server pushes an
 * `elicitation/create` request; the client POSTs its answer (202), and the same stream then
 * ends with the tool result. N workers (the --connections setting) each run rounds back to back
 * until the time is up; each worker has its own session (opened before the load) and its own two
 * keep-alive connections (the open stream, and the answer POST).
 *
 * A round counts once its stream has ended; its latency runs from the tools/call POST to that
 * end. Every round is checked (the pushed request, the 202, the final text "5"): a wrong round
 * counts as a mismatch, a non-2xx status as non2xx, a socket error as an error and a round that
 * takes longer than the timeout as a timeout. After the time is up, the rounds in flight finish
 * and count; the elapsed time includes them.
 */
import { Agent, request, type IncomingMessage } from 'node:http';

import { ADD_ARGUMENTS, ADD_EXPECTED_TEXT, CONFIRM_ADD_TOOL } from '../shared/bench-spec.js';
import { openLegacySession, SESSIONLESS_NOTE, type LegacySession } from './legacy-session.js';
import { runRoundsFor, type Outcome, type RoundDriver } from './round-loop.js';

/** A round that takes longer than this is abandoned and counted as a timeout. */
const ROUND_TIMEOUT_MS = 10_000;

interface RoundResult {
  readonly outcome: Outcome;
  readonly problem?: string;
  readonly latencyMs: number;
  /** Bytes of the tools/call response stream. */
  readonly bytes: number;
  /** The stream as received (kept for the probe only). */
  readonly raw?: string;
}

interface Worker {
  readonly index: number;
  readonly session: LegacySession;
  readonly agent: Agent;
}

let roundCounter = 0;

/** Sends the client's answer to a pushed request; resolves with the HTTP status. */
function answer(url: string, worker: Worker, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: worker.agent,
        headers: { ...worker.session.headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Accepts the elicitation: every boolean field true, any other field left out. */
function acceptingContent(params: unknown): Record<string, unknown> | string {
  const schema = (params as { requestedSchema?: { properties?: Record<string, { type?: unknown }> } } | undefined)
    ?.requestedSchema;
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null)
    return 'elicitation/create has no requestedSchema.properties';
  const content: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'boolean') content[name] = true;
  }
  if (Object.keys(content).length === 0) return 'elicitation/create asks for no boolean field';
  return content;
}

/** What is wrong with the final answer to request `id`, or null. */
function checkFinal(message: Record<string, unknown>, id: string): string | null {
  if (message['id'] !== id) return `final answer has id ${JSON.stringify(message['id'])}, expected ${id}`;
  const error = message['error'] as { code?: unknown; message?: unknown } | undefined;
  if (error) return `JSON-RPC error ${String(error.code)}: ${String(error.message)}`;
  const result = message['result'] as
    { isError?: unknown; content?: Array<{ type?: unknown; text?: unknown }> } | undefined;
  if (typeof result !== 'object' || result === null) return 'no result';
  if (result.isError === true) return `tool error: ${JSON.stringify(result.content)}`;
  const first = Array.isArray(result.content) ? result.content[0] : undefined;
  if (first?.type !== 'text' || first.text !== ADD_EXPECTED_TEXT) {
    return `expected text "${ADD_EXPECTED_TEXT}", got ${JSON.stringify(result.content)}`;
  }
  return null;
}

/** One full round on `worker`'s session. Never rejects. */
function round(url: string, worker: Worker, keepRaw: boolean): Promise<RoundResult> {
  const id = `round-${worker.index}-${++roundCounter}`;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: CONFIRM_ADD_TOOL.name, arguments: ADD_ARGUMENTS },
  });
  const started = process.hrtime.bigint();
  return new Promise<RoundResult>((resolve) => {
    let bytes = 0;
    let raw = '';
    let settled = false;
    let elicited = false;
    let resulted = false;
    let answered: Promise<number> | undefined;
    let problem: string | undefined;
    let outcome: Outcome = 'ok';
    let response: IncomingMessage | undefined;

    const finish = (final: Outcome, why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({ outcome: final, problem: why, latencyMs, bytes, ...(keepRaw && { raw }) });
    };
    const fail = (final: Outcome, why: string) => {
      if (outcome === 'ok') {
        outcome = final;
        problem = why;
      }
    };
    const timer = setTimeout(() => {
      finish('timeout', `no complete round within ${ROUND_TIMEOUT_MS} ms${elicited ? ' (after the elicitation)' : ''}`);
      req.destroy();
    }, ROUND_TIMEOUT_MS);

    const onEvent = (data: string) => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(data) as Record<string, unknown>;
      } catch {
        fail('mismatch', `an SSE event is not JSON: ${data.slice(0, 100)}`);
        return;
      }
      if (message['method'] === 'elicitation/create') {
        if (elicited) fail('mismatch', 'a second elicitation/create in one round');
        elicited = true;
        const pushedId = message['id'];
        if (typeof pushedId !== 'string' && typeof pushedId !== 'number') {
          fail('mismatch', 'elicitation/create has no id');
          return;
        }
        const content = acceptingContent(message['params']);
        if (typeof content === 'string') {
          fail('mismatch', content);
          return;
        }
        answered = answer(
          url,
          worker,
          JSON.stringify({ jsonrpc: '2.0', id: pushedId, result: { action: 'accept', content } }),
        );
        answered.then(
          (status) => {
            if (status !== 202)
              fail(
                status >= 200 && status < 300 ? 'mismatch' : 'non2xx',
                `the answer POST got HTTP ${status}, expected 202`,
              );
          },
          (error: Error) => fail('error', `the answer POST failed: ${error.message}`),
        );
        return;
      }
      if ('id' in message && ('result' in message || 'error' in message)) {
        if (!elicited) fail('mismatch', 'the result came without an elicitation/create before it');
        resulted = true;
        const wrong = checkFinal(message, id);
        if (wrong) fail('mismatch', wrong);
        return;
      }
      // Anything else (a notification) is allowed and ignored.
    };

    const req = request(
      url,
      {
        method: 'POST',
        agent: worker.agent,
        headers: { ...worker.session.headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        response = res;
        const status = res.statusCode ?? 0;
        const contentType = String(res.headers['content-type'] ?? '');
        if (status < 200 || status >= 300) fail('non2xx', `tools/call got HTTP ${status}`);
        else if (!contentType.includes('text/event-stream'))
          fail('mismatch', `tools/call answered ${contentType || 'no content type'}, expected an SSE stream`);
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          bytes += Buffer.byteLength(chunk);
          if (keepRaw) raw += chunk;
          buffer += chunk;
          for (;;) {
            const match = /\r?\n\r?\n/.exec(buffer);
            if (!match) break;
            const event = buffer.slice(0, match.index);
            buffer = buffer.slice(match.index + match[0].length);
            const data = event
              .split(/\r?\n/)
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trimStart())
              .join('\n');
            if (data.length > 0) onEvent(data);
          }
        });
        res.on('end', () => {
          // A last event without its closing blank line.
          const rest = buffer
            .split(/\r?\n/)
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (rest.length > 0) onEvent(rest);
          const settle = () => {
            if (!elicited) fail('mismatch', 'the stream ended without an elicitation/create');
            if (!resulted) fail('mismatch', 'the stream ended without the result of the call');
            finish(outcome, problem);
          };
          // The 202 usually arrives before the stream ends; wait for it so that its check counts.
          if (answered) answered.then(settle, settle);
          else settle();
        });
        res.on('error', (error) => finish('error', error.message));
      },
    );
    req.on('error', (error) => {
      if (!response) finish('error', `tools/call failed: ${error.message}`);
      else finish('error', error.message);
    });
    req.end(body);
  });
}

/**
 * Opens one session per worker (the --connections setting) on `url`; the sessions are opened
 * before any round, outside the measured time.
 */
export async function prepareRounds(url: string, workerCount: number): Promise<RoundDriver> {
  const workers: Worker[] = [];
  for (let index = 0; index < workerCount; index++) {
    const session = await openLegacySession(url);
    workers.push({ index, session, agent: new Agent({ keepAlive: true, maxSockets: 2 }) });
  }
  const sessionless = workers[0]!.session.sessionId === undefined;
  return {
    ...(sessionless && { note: SESSIONLESS_NOTE }),
    async probe() {
      const result = await round(url, workers[0]!, true);
      const problem = result.outcome === 'ok' ? null : `${result.outcome}: ${result.problem ?? ''}`;
      return { problem, bytes: result.bytes, raw: result.raw ?? '' };
    },
    async warmUp(settings) {
      if (settings.warmupSec > 0) await runRoundsFor(workers, settings.warmupSec, (w) => round(url, w, false));
    },
    measure: (settings) => runRoundsFor(workers, settings.durationSec, (w) => round(url, w, false)),
    close() {
      for (const worker of workers) worker.agent.destroy();
    },
  };
}
