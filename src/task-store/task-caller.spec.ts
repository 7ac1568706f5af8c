import type { IncomingMessage } from 'node:http';
import type { McpTaskRecord } from './mcp-task-record.js';
import { callerOf, isTaskOf } from './task-caller.js';

const record = (fields: Partial<McpTaskRecord>): McpTaskRecord =>
  ({ taskId: 't', owner: null, status: 'working', ...fields }) as McpTaskRecord;

describe('isTaskOf', () => {
  it('is the task of the caller that created it, on the server that created it', () => {
    const task = record({ server: '/mcp', caller: 'address:127.0.0.1' });
    expect(isTaskOf(task, '/mcp', 'address:127.0.0.1', null)).toBe(true);
    expect(isTaskOf(task, '/mcp/staff', 'address:127.0.0.1', null)).toBe(false);
    expect(isTaskOf(task, '/mcp', 'address:127.0.0.2', null)).toBe(false);
  });

  it('tells principals apart, and an anonymous caller from a principal at the same address', () => {
    const task = record({ server: '/mcp', owner: 'ada', caller: 'principal:ada' });
    expect(isTaskOf(task, '/mcp', 'principal:ada', 'ada')).toBe(true);
    expect(isTaskOf(task, '/mcp', 'principal:bob', 'bob')).toBe(false);
    expect(isTaskOf(task, '/mcp', 'address:127.0.0.1', null)).toBe(false);
  });

  it('matches a record written before tasks named their server and caller by its principal alone', () => {
    const task = record({ owner: 'ada' });
    expect(isTaskOf(task, '/any', 'principal:ada', 'ada')).toBe(true);
    expect(isTaskOf(task, '/any', 'address:127.0.0.1', null)).toBe(false);
  });
});

describe('callerOf', () => {
  // The socket's peer is a proxy's; the adapter reported the address the proxy forwarded.
  const request = { socket: { remoteAddress: '10.0.0.9' } } as unknown as IncomingMessage;
  const overHttp = (clientAddress: string | undefined) => ({
    transport: { kind: 'http' as const, request, clientAddress },
  });

  it('is the principal, else the client address the adapter reported (never the socket read again)', () => {
    expect(callerOf(overHttp('203.0.113.7'), 'ada')).toBe('principal:ada');
    expect(callerOf(overHttp('203.0.113.7'), null)).toBe('address:203.0.113.7');
    expect(callerOf(overHttp(undefined), null)).toBe('address:unknown');
  });

  it('is stdio off HTTP', () => {
    expect(callerOf({ transport: { kind: 'stdio' } }, null)).toBe('stdio');
    expect(callerOf({ transport: { kind: 'stdio' } }, 'ada')).toBe('principal:ada');
  });
});
