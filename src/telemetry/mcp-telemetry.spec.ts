import { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import { AnonymousPrincipalSource } from '../core/mcp-principal-source.js';
import type { McpAuditEvent } from './mcp-audit-event.js';
import { LoggerAuditSink, McpAuditSink } from './mcp-audit-sink.js';
import type { McpRequestObserver } from './mcp-request-observer.js';
import { outcomeOfResponse, startTrace } from './mcp-request-trace.js';
import { McpTelemetry } from './mcp-telemetry.js';

class Collecting extends McpAuditSink {
  readonly events: McpAuditEvent[] = [];
  record(event: McpAuditEvent): void {
    this.events.push(event);
  }
}

const http = { kind: 'stdio' } as const;

describe('outcomeOfResponse', () => {
  const ok = (result: Record<string, unknown>) => outcomeOfResponse({ jsonrpc: '2.0', id: 1, result });
  const err = (code: number, message: string, data?: unknown, status?: number) =>
    outcomeOfResponse({ jsonrpc: '2.0', id: 1, error: { code, message, data } }, status);

  it('reads every kind', () => {
    expect(ok({ content: [] })).toEqual({ kind: 'complete' });
    expect(ok({ isError: true })).toEqual({ kind: 'tool_error' });
    expect(ok({ resultType: 'input_required', inputRequests: { a: {}, b: {} } })).toEqual({
      kind: 'input_required',
      inputRequests: 2,
    });
    expect(err(-32602, 'Invalid or expired requestState', { reason: 'expired' })).toEqual({
      kind: 'rejected_request_state',
      reason: 'expired',
    });
    expect(err(-32602, 'Invalid params: x', { reason: 'expired' })).toEqual({
      kind: 'protocol_error',
      code: -32602,
      message: 'Invalid params: x',
    });
    expect(err(-32029, 'Too many requests', undefined, 429)).toEqual({
      kind: 'rate_limited',
      code: -32029,
      message: 'Too many requests',
    });
    expect(outcomeOfResponse(undefined)).toEqual({ kind: 'cancelled' });
  });
});

describe('McpTelemetry', () => {
  it('runs the arounds outside-in, then hands every observer and the sink the same event', async () => {
    const order: string[] = [];
    const sink = new Collecting();
    const observer: McpRequestObserver = {
      async around(trace, next) {
        order.push('before');
        const value = await next();
        order.push(`after ${trace.outcome?.kind}`);
        return value;
      },
      finished: (event) => order.push(`finished ${event.outcome.kind}`),
    };
    const telemetry = new McpTelemetry(sink, new AnonymousPrincipalSource(), observer);
    const trace = startTrace('modern', http, 7, 'tools/call', { name: 'echo' });
    const value = await telemetry.observe(
      trace,
      async () => {
        order.push('run');
        return 'answer';
      },
      () => ({ kind: 'complete' }),
    );
    expect(value).toBe('answer');
    expect(order).toEqual(['before', 'run', 'after complete', 'finished complete']);
    expect(sink.events).toEqual([
      expect.objectContaining({ id: 7, method: 'tools/call', target: 'echo', principal: null, transport: 'stdio' }),
    ]);
  });

  it('a failing sink or observer never fails the request', async () => {
    const sink = new (class extends McpAuditSink {
      record(): Promise<void> {
        return Promise.reject(new Error('disk full'));
      }
    })();
    const observer: McpRequestObserver = {
      finished: () => {
        throw new Error('boom');
      },
      inputRequestPushed: () => {
        throw new Error('boom');
      },
    };
    const telemetry = new McpTelemetry(sink, new AnonymousPrincipalSource(), observer);
    (telemetry as unknown as { logger: { error: () => void } }).logger = { error: () => undefined };
    const trace = startTrace('legacy', http, 1, 'tools/call', {});
    telemetry.inputRequestPushed(trace, 'k', { method: 'roots/list' });
    await expect(
      telemetry.observe(
        trace,
        async () => 1,
        () => ({ kind: 'complete' }),
      ),
    ).resolves.toBe(1);
    expect(trace.pushedInputRequests).toBe(1);
  });

  it('a request that throws counts as an internal protocol error, and still throws', async () => {
    const sink = new Collecting();
    const telemetry = new McpTelemetry(sink, new AnonymousPrincipalSource());
    const trace = startTrace('modern', http, 2, 'ping', {});
    await expect(
      telemetry.observe(
        trace,
        () => Promise.reject(new Error('x')),
        () => ({ kind: 'complete' }),
      ),
    ).rejects.toThrow('x');
    expect(sink.events[0]?.outcome).toEqual({ kind: 'protocol_error', code: -32603 });
  });

  it('without an around hook, a run or settle that throws is still recorded once and marked observed', async () => {
    const sink = new Collecting();
    const telemetry = new McpTelemetry(sink, new AnonymousPrincipalSource());
    const thrown = new Error('sync');
    await expect(
      telemetry.observe(
        startTrace('modern', http, 3, 'ping', {}),
        () => {
          throw thrown;
        },
        () => ({ kind: 'complete' }),
      ),
    ).rejects.toThrow(thrown);
    expect(McpTelemetry.wasObserved(thrown)).toBe(true);
    await expect(
      telemetry.observe(
        startTrace('modern', http, 4, 'ping', {}),
        () => Promise.resolve(1),
        () => {
          throw new Error('settle');
        },
      ),
    ).rejects.toThrow('settle');
    await expect(
      telemetry.observe(
        startTrace('modern', http, 5, 'ping', {}),
        async () => 2,
        () => ({ kind: 'tool_error' }),
      ),
    ).resolves.toBe(2);
    expect(sink.events.map((e) => [e.id, e.outcome])).toEqual([
      [3, { kind: 'protocol_error', code: -32603 }],
      [4, { kind: 'protocol_error', code: -32603 }],
      [5, { kind: 'tool_error' }],
    ]);
  });

  it('the default sink builds no line when debug is off', () => {
    const sink = new LoggerAuditSink();
    const logger = (sink as unknown as { logger: { debug: jest.Mock } }).logger;
    const debug = jest.spyOn(logger, 'debug').mockImplementation(() => undefined);
    const event = {
      time: '',
      durationMs: 1,
      transport: 'http',
      era: 'modern',
      method: 'ping',
      id: 1,
      principal: null,
      outcome: { kind: 'complete' },
    } as const;
    const enabled = jest.spyOn(Logger, 'isLevelEnabled').mockReturnValue(false);
    sink.record(event);
    expect(debug).not.toHaveBeenCalled();
    enabled.mockReturnValue(true);
    sink.record(event);
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('ping complete'));
    sink.record({
      ...event,
      method: '',
      id: null,
      outcome: { kind: 'protocol_error', code: -32700 },
      refused: { httpStatus: 400 },
    });
    expect(debug).toHaveBeenLastCalledWith(expect.stringMatching(/^\(unread\) protocol_error -32700 refused 400 /));
    enabled.mockRestore();
  });

  it('hands notifications to the observers that have the hook, with the claimed version only when supported', () => {
    const seen: McpRequestObserver.Notification[] = [];
    const failing: McpRequestObserver = {
      notified: () => {
        throw new Error('boom');
      },
    };
    const telemetry = new McpTelemetry(new Collecting(), new AnonymousPrincipalSource(), {
      notified: (n) => seen.push(n),
    });
    const meta = (version: string) => ({ _meta: { 'io.modelcontextprotocol/protocolVersion': version } });
    telemetry.notified('modern', 'http', 'notifications/cancelled', meta('2026-07-28'));
    telemetry.notified('modern', 'http', 'notifications/cancelled', meta('x'.repeat(1000)));
    telemetry.notified('legacy', 'stdio', 'notifications/initialized', 'not an object', {
      protocolVersion: '2025-11-25',
      id: 's-1',
    });
    expect(seen.map((n) => [n.era, n.transport, n.method, n.protocolVersion, n.sessionId])).toEqual([
      ['modern', 'http', 'notifications/cancelled', '2026-07-28', undefined],
      ['modern', 'http', 'notifications/cancelled', undefined, undefined],
      ['legacy', 'stdio', 'notifications/initialized', '2025-11-25', 's-1'],
    ]);
    expect(seen[2]!.params).toEqual({});

    const guarded = new McpTelemetry(new Collecting(), new AnonymousPrincipalSource(), failing);
    const errors: unknown[] = [];
    (guarded as unknown as { logger: { error: (m: unknown) => void } }).logger = { error: (m) => errors.push(m) };
    expect(() => guarded.notified('modern', 'http', 'notifications/x', {})).not.toThrow();
    expect(errors).toEqual(['An MCP request observer failed (notified)']);
  });

  it('sends a pushed request through the aroundPush hooks, outermost first, each able to add to its _meta', async () => {
    const order: string[] = [];
    const hook =
      (name: string): McpRequestObserver['aroundPush'] =>
      async (_trace, push, send) => {
        order.push(`${name} ${push.method}`);
        push.meta[name] = true;
        return send();
      };
    const telemetry = new McpTelemetry(new Collecting(), new AnonymousPrincipalSource(), { aroundPush: hook('a') });
    telemetry.onModuleInit();
    expect(telemetry.wrapsPushes).toBe(true);
    const trace = startTrace('legacy', http, 1, 'tools/call', {});
    const push = { id: 'p-1', key: 'k', method: 'roots/list', meta: {} as Record<string, unknown> };
    const answer = await telemetry.push(trace, push, async () => {
      order.push(`send ${JSON.stringify(push.meta)}`);
      return { roots: [] };
    });
    expect(answer).toEqual({ roots: [] });
    expect(order).toEqual(['a roots/list', 'send {"a":true}']);
    expect(new McpTelemetry(new Collecting(), new AnonymousPrincipalSource()).wrapsPushes).toBe(false);
  });
});
