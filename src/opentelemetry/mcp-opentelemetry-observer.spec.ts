import { trace } from '@opentelemetry/api';
import { startTrace } from '../telemetry/mcp-request-trace.js';
import { McpOpenTelemetryObserver } from './mcp-opentelemetry-observer.js';

describe('McpOpenTelemetryObserver without an SDK', () => {
  it('runs the request under a non-recording span and builds no attribute', async () => {
    const observer = new McpOpenTelemetryObserver();
    const request = startTrace('modern', { kind: 'stdio' }, 1, 'tools/call', {
      name: 'echo',
      _meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    let recording: boolean | undefined;
    const value = await observer.around(request, async () => {
      recording = trace.getActiveSpan()?.isRecording();
      request.outcome = { kind: 'complete' };
      return 42;
    });
    expect(value).toBe(42);
    expect(recording).not.toBe(true);
  });

  it('sends a pushed request without trace context and sees notifications without failing', async () => {
    const observer = new McpOpenTelemetryObserver();
    const request = startTrace('legacy', { kind: 'stdio' }, 1, 'tools/call', { name: 'echo' });
    const meta: Record<string, unknown> = {};
    const answer = await observer.aroundPush(
      request,
      { id: 'p-1', key: 'k', method: 'roots/list', meta },
      async () => ({
        roots: [],
      }),
    );
    expect(answer).toEqual({ roots: [] });
    expect(meta).toEqual({});
    expect(() =>
      observer.notified({
        time: Date.now(),
        startedAt: 0,
        transport: 'stdio',
        era: 'modern',
        method: 'notifications/initialized',
        params: {},
      }),
    ).not.toThrow();
  });
});
