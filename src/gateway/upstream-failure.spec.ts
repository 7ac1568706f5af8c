import { McpClientError, type McpClientFailure } from '../client/mcp-client.error.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpUpstreamError } from './mcp-upstream.error.js';
import { McpUpstreamUnavailableException } from './mcp-upstream-unavailable.exception.js';
import { upstreamFailure } from './upstream-failure.js';

describe('upstreamFailure', () => {
  it.each<[McpClientFailure, number, number]>([
    ['unreachable', -32051, 503],
    ['unavailable', -32051, 503],
    ['closed', -32051, 503],
    ['timeout', -32603, 502],
    ['invalid-response', -32603, 502],
    ['unauthorized', -32603, 502],
    ['too-large', -32603, 502],
  ])('%s: JSON-RPC %i, HTTP %i', (failure, code, status) => {
    const error = upstreamFailure('wx', 'tools/call', new McpClientError('wx', failure, 'boom'));
    expect(error.code).toBe(code);
    expect(error.httpStatus).toBe(status);
    expect(error.message).not.toContain('boom');
  });

  it('gives an answer cut off by maxResponseBytes the error of one over maxResultChars', () => {
    const error = upstreamFailure('wx', 'tools/call', new McpClientError('wx', 'too-large', 'boom'));
    expect(error).toBeInstanceOf(McpUpstreamError);
    expect(error).toMatchObject({ reason: 'too-large', data: { upstream: 'wx', reason: 'too-large' } });
    expect(error.message).toBe('Upstream "wx": tools/call: the answer exceeds the client\'s maxResponseBytes');
  });

  it("keeps the upstream's Retry-After on the transient error", () => {
    const error = upstreamFailure(
      'wx',
      'tools/call',
      new McpClientError('wx', 'unavailable', 'x', { retryAfterMs: 4200 }),
    );
    expect(error).toBeInstanceOf(McpUpstreamUnavailableException);
    expect(error.httpHeaders).toEqual({ 'retry-after': '5' });
    expect(error.data).toEqual({ upstream: 'wx', retryAfterMs: 4200 });
  });

  it("passes on the upstream's own JSON-RPC error, named, and never as a 500", () => {
    const invalid = upstreamFailure(
      'wx',
      'tools/call',
      Object.assign(new Error('x'), { code: -32602, message: 'Bad city' }),
    );
    expect([invalid.code, invalid.message, invalid.httpStatus]).toEqual([-32602, 'Upstream "wx": Bad city', 200]);
    const internal = upstreamFailure(
      'wx',
      'tools/call',
      Object.assign(new Error('x'), { code: -32603, message: 'oops' }),
    );
    expect(internal.httpStatus).toBe(502);
    expect(
      upstreamFailure('wx', 'tools/call', Object.assign(new Error('x'), { code: -32051, message: 'busy' })),
    ).toBeInstanceOf(McpUpstreamUnavailableException);
  });

  it('leaves our own errors as they are and names anything else a failed upstream call', () => {
    const ours = McpError.invalidParams('mine');
    expect(upstreamFailure('wx', 'tools/call', ours)).toBe(ours);
    const other = upstreamFailure('wx', 'tools/call', new TypeError('surprise at line 3'));
    expect(other).toBeInstanceOf(McpUpstreamError);
    expect(other.message).toBe('Upstream "wx": tools/call failed');
  });
});
