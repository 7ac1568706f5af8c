import type { RequestStatePayload } from '../mrtr/request-state-payload.js';
import { McpError } from '../protocol/mcp.error.js';
import type { InputRequest } from '../protocol/wire-types.js';
import type { McpTaskRecord, McpTaskStatus } from '../task-store/mcp-task-record.js';
import {
  abandonedRecord,
  answeredRecord,
  askedRecord,
  cancelledRecord,
  endedRecord,
  leasedRecord,
  NODE_GONE,
  progressedRecord,
} from './task-transitions.js';

const T0 = '2026-01-01T00:00:00.000Z';
const NOW = '2026-01-01T00:00:05.000Z';
/** The lease a resumed task gets (epoch ms). */
const LEASE = 50_000;

function task(status: McpTaskStatus = 'working', extra: Partial<McpTaskRecord> = {}): McpTaskRecord {
  return Object.freeze({
    taskId: 't1',
    owner: 'alice',
    status,
    createdAt: T0,
    lastUpdatedAt: T0,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
    expiresAt: 60_000,
    tool: 'deploy',
    arguments: { env: 'prod' },
    protocolVersion: '2026-07-28',
    clientCapabilities: {},
    ...extra,
  });
}

const question = (message: string): InputRequest =>
  ({
    method: 'elicitation/create',
    params: { message, requestedSchema: { type: 'object', properties: {} } },
  }) as InputRequest;
const replay = { ledger: [] } as unknown as RequestStatePayload;
const FINISHED: McpTaskStatus[] = ['completed', 'failed', 'cancelled'];

describe('task transitions', () => {
  it('cancel: a live task is cancelled, its pending questions dropped; a finished one stays as it is', () => {
    const waiting = task('input_required', { inputRequests: { a: question('?') }, inputKeys: { a: 'a' }, answers: {} });
    expect(cancelledRecord(waiting, NOW)).toEqual({
      ...waiting,
      status: 'cancelled',
      statusMessage: 'Cancelled by the client',
      lastUpdatedAt: NOW,
      inputRequests: undefined,
      inputKeys: undefined,
      answers: undefined,
    });
    expect(cancelledRecord(task('working'), NOW)?.status).toBe('cancelled');
    for (const status of FINISHED) expect(cancelledRecord(task(status), NOW)).toBeUndefined();
  });

  it('progress: only a working task takes a statusMessage', () => {
    expect(progressedRecord(task('working'), 'Half way', NOW)).toEqual({
      ...task('working'),
      statusMessage: 'Half way',
      lastUpdatedAt: NOW,
    });
    for (const status of ['input_required', ...FINISHED] as McpTaskStatus[]) {
      expect(progressedRecord(task(status), 'Half way', NOW)).toBeUndefined();
    }
  });

  it('end: a live task takes the ending; a cancelled task keeps its own', () => {
    const ending = { status: 'completed' as const, result: { content: [] } };
    expect(endedRecord(task('working'), ending, NOW)).toEqual({ ...task('working'), ...ending, lastUpdatedAt: NOW });
    expect(endedRecord(task('cancelled'), ending, NOW)).toBeUndefined();
    expect(endedRecord(task('failed'), ending, NOW)).toBeUndefined();
  });

  it('ask: the questions go out under wire keys never issued before in the task', () => {
    const first = askedRecord(task('working'), { confirm: question('Sure?') }, replay, NOW)!;
    expect(first).toMatchObject({
      status: 'input_required',
      statusMessage: 'Waiting for the client to answer inputRequests',
      inputRequests: { confirm: question('Sure?') },
      inputKeys: { confirm: 'confirm' },
      answers: {},
      issuedKeys: ['confirm'],
      lastUpdatedAt: NOW,
    });
    expect(first.replay).toBe(replay);
    // The same ledger key asked again (a later round) gets a fresh wire key.
    const again = askedRecord({ ...first, status: 'working' }, { confirm: question('Really?') }, replay, NOW)!;
    expect(again.inputRequests).toEqual({ 'confirm~2': question('Really?') });
    expect(again.inputKeys).toEqual({ 'confirm~2': 'confirm' });
    expect(again.issuedKeys).toEqual(['confirm', 'confirm~2']);
    expect(askedRecord(task('cancelled'), { confirm: question('Sure?') }, replay, NOW)).toBeUndefined();
  });

  it('answer: takes answers to outstanding wire keys only, and resumes once the last one is in', () => {
    const waiting = askedRecord(task('working'), { a: question('A?'), b: question('B?') }, replay, T0)!;
    expect(answeredRecord(waiting, { zzz: { action: 'accept' } }, 10_000, NOW, LEASE)).toBeUndefined();

    const half = answeredRecord(waiting, { a: { action: 'accept', content: { x: 1 } } }, 10_000, NOW, LEASE)!;
    expect(half.status).toBe('input_required');
    expect(half.inputRequests).toEqual({ b: question('B?') });
    expect(half.answers).toEqual({ a: { action: 'accept', content: { x: 1 } } });
    expect(half.lastUpdatedAt).toBe(NOW);
    // Already answered: ignored.
    expect(answeredRecord(half, { a: { action: 'decline' } }, 10_000, NOW, LEASE)).toBeUndefined();

    const resumed = answeredRecord(half, { b: { action: 'decline' } }, 10_000, NOW, LEASE)!;
    expect(resumed).toMatchObject({ status: 'working', answers: { a: expect.anything(), b: { action: 'decline' } } });
    expect(resumed.statusMessage).toBeUndefined();
    expect(resumed.inputRequests).toBeUndefined();
    expect(resumed.inputKeys).toBeUndefined();
    expect(resumed.replay).toBe(replay);

    expect(answeredRecord(task('working'), { a: { action: 'accept' } }, 10_000, NOW, LEASE)).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'answer: an inherited name (%s) is an unknown key, ignored; the record stays as it is',
    (name) => {
      const waiting = askedRecord(task('working'), { a: question('A?') }, replay, T0)!;
      // As tasks/update gets it: JSON.parse makes even "__proto__" an own key of the answers.
      const responses = JSON.parse(`{"${name}": {"action": "accept", "content": {"x": 1}}}`) as Record<
        string,
        Record<string, unknown>
      >;
      expect(answeredRecord(waiting, responses, 10_000, NOW, LEASE)).toBeUndefined();
      // The same with a real answer beside it: only that one is taken.
      const both = JSON.parse(`{"${name}": {"action": "decline"}, "a": {"action": "cancel"}}`) as typeof responses;
      const resumed = answeredRecord(waiting, both, 10_000, NOW, LEASE)!;
      expect(resumed.status).toBe('working');
      expect(Object.keys(resumed.answers!)).toEqual(['a']);
      // A store that gives records back from JSON (shared stores) holds plain objects: the same.
      const stored = JSON.parse(JSON.stringify(waiting)) as McpTaskRecord;
      expect(answeredRecord(stored, responses, 10_000, NOW, LEASE)).toBeUndefined();
    },
  );

  it('ask and answer: a handler key "__proto__" stays a key of the questions, the wire keys and the answers', () => {
    const waiting = askedRecord(task('working'), JSON.parse('{"__proto__": {}}'), replay, T0)!;
    expect(Object.keys(waiting.inputRequests!)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(waiting.inputRequests)).toBe(Object.prototype);
    expect(Object.keys(waiting.inputKeys!)).toEqual(['__proto__']);
    const answer = { action: 'accept', content: { x: 1 } };
    const resumed = answeredRecord(
      waiting,
      JSON.parse(`{"__proto__": ${JSON.stringify(answer)}}`),
      10_000,
      NOW,
      LEASE,
    )!;
    expect(resumed.status).toBe('working');
    expect(Object.keys(resumed.answers!)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(resumed.answers, '__proto__')?.value).toEqual(answer);
    expect(Object.getPrototypeOf(resumed.answers)).toBe(Object.prototype);
  });

  it('answer: a task whose lease lapsed while it waited is working again under the lease given', () => {
    const waited = askedRecord(task('working', { leaseExpiresAt: 1000 }), { a: question('A?') }, replay, T0)!;
    const resumed = answeredRecord(waited, { a: { action: 'accept' } }, 10_000, NOW, LEASE)!;
    expect(resumed).toMatchObject({ status: 'working', leaseExpiresAt: LEASE });
    // Read by any node before the replay first renews it, it is not taken for abandoned.
    expect(abandonedRecord(resumed, 20_000, NOW)).toBeUndefined();
  });

  it('answer: answers the task would keep past maxBytes are refused with -32602', () => {
    const waiting = askedRecord(task('working'), { a: question('A?') }, replay, T0)!;
    const big = { action: 'accept', content: { text: 'x'.repeat(500) } };
    const refusal = (() => {
      try {
        answeredRecord(waiting, { a: big }, 100, NOW, LEASE);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(McpError);
    expect(refusal).toMatchObject({ code: -32602, data: { limit: 'maxTaskPayloadBytes', maxBytes: 100 } });
  });

  it('never changes the record it is given', () => {
    const waiting = askedRecord(task('working'), { a: question('A?') }, replay, T0)!;
    const frozen = Object.freeze({ ...waiting, inputRequests: Object.freeze({ ...waiting.inputRequests }) });
    expect(() => answeredRecord(frozen, { a: { action: 'accept' } }, 10_000, NOW, LEASE)).not.toThrow();
    expect(frozen.inputRequests).toEqual({ a: question('A?') });
  });

  it('lease: a running task is vouched for; any other stays as it is', () => {
    expect(leasedRecord(task('working'), 9000)).toMatchObject({ status: 'working', leaseExpiresAt: 9000 });
    for (const status of [...FINISHED, 'input_required' as const])
      expect(leasedRecord(task(status), 9000)).toBeUndefined();
  });

  it('abandoned: a running task whose lease lapsed fails, saying its node stopped; one still vouched for stays', () => {
    const leased = task('working', { leaseExpiresAt: 10_000, statusMessage: 'Step 2 of 3' });
    expect(abandonedRecord(leased, 10_000, NOW)).toBeUndefined();
    expect(abandonedRecord(leased, 10_001, NOW)).toMatchObject({
      status: 'failed',
      statusMessage: NODE_GONE,
      error: { code: -32603, message: NODE_GONE },
      leaseExpiresAt: undefined,
      lastUpdatedAt: NOW,
    });
    expect(abandonedRecord(task('working'), 10_001, NOW)).toBeUndefined();
    for (const status of FINISHED)
      expect(abandonedRecord(task(status, { leaseExpiresAt: 1 }), 10_001, NOW)).toBeUndefined();
  });
});
