import { frozenJson } from './frozen-json.js';
import type { McpTaskRecord } from './mcp-task-record.js';
import { frozenRecordBytes, statusJson } from './task-record-bytes.js';

const record = (): McpTaskRecord => ({
  taskId: 'tâche-1',
  owner: null,
  caller: 'principal:zoë',
  status: 'input_required',
  statusMessage: 'Étape 1 ✓',
  createdAt: '2026-07-28T12:00:00.000Z',
  lastUpdatedAt: '2026-07-28T12:00:00.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 1000,
  expiresAt: 1_800_000_000_000,
  tool: 'report',
  arguments: { city: 'Lyon' },
  protocolVersion: '2026-07-28',
  clientCapabilities: { elicitation: { form: {} } },
  inputRequests: { 'elicit-1': { method: 'elicitation/create', params: { message: 'Nom ?' } } as never },
  answers: {},
  result: undefined,
});

const bytesOfStatus = (r: McpTaskRecord) => Buffer.byteLength(statusJson(r), 'utf8');

describe('frozenRecordBytes', () => {
  it('is the UTF-8 bytes of the status JSON a store writes, plus the arguments’ bytes given', () => {
    const frozen = frozenJson(record());
    expect(frozenRecordBytes(frozen, 17)).toBe(bytesOfStatus(frozen) + 17);
  });

  it('stays exact through changed versions that share their parts', () => {
    let current = frozenJson(record());
    const changes: Array<(r: McpTaskRecord) => McpTaskRecord> = [
      (r) => ({ ...r, statusMessage: 'x'.repeat(500) }),
      (r) => ({ ...r, answers: { 'elicit-1': { action: 'accept', content: { name: 'Zoë' } } } }),
      (r) => ({ ...r, status: 'working', inputRequests: undefined, statusMessage: undefined, leaseExpiresAt: 12 }),
      (r) => ({ ...r, status: 'completed', result: { content: [{ type: 'text', text: '完成' }] } }),
    ];
    for (const change of changes) {
      current = frozenJson(change(current));
      expect(frozenRecordBytes(current, 0)).toBe(bytesOfStatus(current));
    }
  });
});
