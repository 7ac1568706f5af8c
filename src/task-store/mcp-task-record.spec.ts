import { createTaskResult, detailedTask, isTerminal, type McpTaskRecord } from './mcp-task-record.js';
import { declaresTasks, TASKS_EXTENSION } from '../protocol/task-support.js';

const BASE: McpTaskRecord = {
  taskId: 't-1',
  owner: null,
  status: 'working',
  createdAt: '2026-07-28T12:00:00.000Z',
  lastUpdatedAt: '2026-07-28T12:00:01.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 1000,
  expiresAt: 0,
  tool: 'report',
  arguments: {},
  protocolVersion: '2026-07-28',
  clientCapabilities: {},
  replay: {
    method: 'tools/call',
    target: 'report',
    argsDigest: 'd',
    principal: null,
    flowId: 'f',
    ledger: [],
    issuedAt: 0,
    startedAt: 0,
  },
  answers: {},
  inputKeys: {},
  issuedKeys: [],
};

describe('task wire shapes', () => {
  it('CreateTaskResult is flat, resultType "task", and carries nothing the server keeps for itself', () => {
    expect(createTaskResult(BASE)).toEqual({
      resultType: 'task',
      taskId: 't-1',
      status: 'working',
      createdAt: '2026-07-28T12:00:00.000Z',
      lastUpdatedAt: '2026-07-28T12:00:01.000Z',
      ttlMs: 60_000,
      pollIntervalMs: 1000,
    });
  });

  it('DetailedTask inlines only the payload of its status', () => {
    const request = {
      method: 'elicitation/create' as const,
      params: { message: 'm', requestedSchema: { type: 'object' as const, properties: {} } },
    };
    expect(detailedTask({ ...BASE, status: 'input_required', inputRequests: { k: request } })).toMatchObject({
      inputRequests: { k: request },
    });
    const completed = detailedTask({
      ...BASE,
      status: 'completed',
      result: { content: [] },
      error: { code: 1, message: 'x' },
    });
    expect(completed['result']).toEqual({ content: [] });
    expect(completed).not.toHaveProperty('error');
    const failed = detailedTask({ ...BASE, status: 'failed', error: { code: -32603, message: 'boom' } });
    expect(failed['error']).toEqual({ code: -32603, message: 'boom' });
    expect(failed).not.toHaveProperty('result');
    for (const status of ['working', 'cancelled'] as const) {
      expect(Object.keys(detailedTask({ ...BASE, status })).sort()).toEqual([
        'createdAt',
        'lastUpdatedAt',
        'pollIntervalMs',
        'status',
        'taskId',
        'ttlMs',
      ]);
    }
  });

  it('knows the terminal statuses and the per-request opt-in', () => {
    expect(['completed', 'failed', 'cancelled'].every((s) => isTerminal(s as never))).toBe(true);
    expect(isTerminal('working') || isTerminal('input_required')).toBe(false);
    expect(declaresTasks({ extensions: { [TASKS_EXTENSION]: {} } })).toBe(true);
    expect(declaresTasks({ extensions: {} })).toBe(false);
    expect(declaresTasks({})).toBe(false);
  });
});
