import type { McpTaskRecord } from '../task-store/mcp-task-record.js';

/**
 * What became of a queued run (`McpTaskRunner.execute`): the task `ended` (completed, failed
 * or cancelled), `parked` in `input_required`, was `interrupted` (handed back: it is still
 * `working`), its handler threw and is to be tried again (`retry`: still `working`), its handler
 * ended but the store did not take its ending (`unrecorded`: still `working`, to be run again — a
 * store failing over, say), or `skipped` (it was no longer `working`, or is gone).
 */
export type QueuedRunEnd = 'ended' | 'parked' | 'interrupted' | 'retry' | 'unrecorded' | 'skipped';

/**
 * What a queued run whose ending was settled came to, by its task as the store holds it now
 * (`null`: the store did not answer). Still `working`, or no answer: the ending was not written
 * (it was logged), so the run is `unrecorded`.
 */
export function settledRunEnd(stored: McpTaskRecord | undefined | null): QueuedRunEnd {
  if (stored === null || stored?.status === 'working') return 'unrecorded';
  return stored?.status === 'input_required' ? 'parked' : 'ended';
}
