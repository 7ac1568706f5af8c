import type { RequestStatePayload } from '../mrtr/request-state-payload.js';
import { ownValue, setOwn } from '../protocol/own-property.js';
import type { InputRequest } from '../protocol/wire-types.js';
import { isTerminal, type McpTaskRecord } from '../task-store/mcp-task-record.js';
import { checkClientPayload, type TaskEnding } from '../task-store/task-payload.js';

// How a task's record changes: each function takes the current record and returns the next one, or
// undefined to leave it as it is. They do no I/O, so a store's compare-and-set loop may run them
// more than once (McpTaskStore.update). `now` is the ISO 8601 time of the change.

/** The task ended by the client; a finished task stays as it is. */
export function cancelledRecord(record: McpTaskRecord, now: string): McpTaskRecord | undefined {
  if (isTerminal(record.status)) return undefined;
  return {
    ...record,
    status: 'cancelled',
    statusMessage: 'Cancelled by the client',
    lastUpdatedAt: now,
    inputRequests: undefined,
    inputKeys: undefined,
    answers: undefined,
  };
}

/** A running task's progress report as its statusMessage; a task not `working` stays as it is. */
export function progressedRecord(record: McpTaskRecord, statusMessage: string, now: string): McpTaskRecord | undefined {
  return record.status === 'working' ? { ...record, statusMessage, lastUpdatedAt: now } : undefined;
}

/** The task ended the way its handler did; a cancelled (or otherwise finished) task keeps its ending. */
export function endedRecord(record: McpTaskRecord, ending: TaskEnding, now: string): McpTaskRecord | undefined {
  return isTerminal(record.status) ? undefined : { ...record, ...ending, lastUpdatedAt: now };
}

/**
 * The task parked in `input_required` with its handler's questions (a finished task stays as it
 * is). Each goes out under a wire key never issued before in this task (the ledger key, else
 * `key~2`, `key~3`…), so an answer meant for an earlier round can never be taken for a new question.
 */
export function askedRecord(
  record: McpTaskRecord,
  questions: Readonly<Record<string, InputRequest>>,
  replay: RequestStatePayload,
  now: string,
): McpTaskRecord | undefined {
  if (isTerminal(record.status)) return undefined;
  const issued = new Set(record.issuedKeys ?? []);
  const inputRequests: Record<string, InputRequest> = {};
  const inputKeys: Record<string, string> = {};
  for (const [ledgerKey, request] of Object.entries(questions)) {
    let wireKey = ledgerKey;
    for (let n = 2; issued.has(wireKey); n++) wireKey = `${ledgerKey}~${n}`;
    issued.add(wireKey);
    setOwn(inputRequests, wireKey, request);
    setOwn(inputKeys, wireKey, ledgerKey);
  }
  return {
    ...record,
    status: 'input_required',
    statusMessage: 'Waiting for the client to answer inputRequests',
    replay,
    inputRequests,
    inputKeys,
    answers: {},
    issuedKeys: [...issued],
    lastUpdatedAt: now,
  };
}

/**
 * The task with the `tasks/update` answers it takes (those for its outstanding wire keys; others
 * are ignored), or undefined when it takes none. Once every question is answered it is `working`
 * again, leased until `leaseExpiresAt` (the lease it had before it asked may have lapsed while it
 * waited), and its handler is to be replayed. Throws -32602 when the answers kept would pass
 * `maxBytes` (limits.maxTaskPayloadBytes: they live as long as the task, as its arguments do).
 */
export function answeredRecord(
  current: McpTaskRecord,
  responses: Readonly<Record<string, Record<string, unknown>>>,
  maxBytes: number,
  now: string,
  leaseExpiresAt: number,
): McpTaskRecord | undefined {
  if (current.status !== 'input_required') return undefined;
  const pending = { ...current.inputRequests };
  const answers = { ...current.answers };
  let taken = 0;
  for (const [wireKey, response] of Object.entries(responses)) {
    // Own keys only: `constructor`, `toString` or `__proto__` is an unknown key, not an inherited member.
    const ledgerKey = ownValue(current.inputKeys, wireKey);
    if (ledgerKey === undefined || !Object.hasOwn(pending, wireKey)) continue;
    setOwn(answers, ledgerKey, response);
    delete pending[wireKey];
    taken++;
  }
  if (taken === 0) return undefined;
  checkClientPayload('answers', answers, maxBytes);
  const next: McpTaskRecord = { ...current, answers, lastUpdatedAt: now };
  if (Object.keys(pending).length > 0) return { ...next, inputRequests: pending };
  return {
    ...next,
    status: 'working',
    statusMessage: undefined,
    inputRequests: undefined,
    inputKeys: undefined,
    leaseExpiresAt,
  };
}

/** A running task vouched for until `leaseExpiresAt` by the node running it; any other stays as it is. */
export function leasedRecord(record: McpTaskRecord, leaseExpiresAt: number): McpTaskRecord | undefined {
  return record.status === 'working' ? { ...record, leaseExpiresAt } : undefined;
}

/** What a task whose node stopped vouching for it says. */
export const NODE_GONE = 'The server node running this task stopped before it finished';

/**
 * A running task whose lease lapsed at `nowMs` (the node running its handler stopped) ends `failed`;
 * any other stays as it is.
 */
export function abandonedRecord(record: McpTaskRecord, nowMs: number, now: string): McpTaskRecord | undefined {
  if (record.status !== 'working' || record.leaseExpiresAt === undefined || record.leaseExpiresAt >= nowMs) {
    return undefined;
  }
  return {
    ...record,
    status: 'failed',
    statusMessage: NODE_GONE,
    error: { code: -32603, message: NODE_GONE },
    leaseExpiresAt: undefined,
    lastUpdatedAt: now,
  };
}

/**
 * A `working` task about to be handed to an executor that recovers lost tasks (a queue), marked
 * `queued`; any other record as it is.
 */
export function queuedRecord(record: McpTaskRecord, recoversLostTasks: boolean): McpTaskRecord {
  return recoversLostTasks && record.status === 'working' && !record.queued ? { ...record, queued: true } : record;
}
