/**
 * What became of a queued run (`McpTaskRunner.execute`): the task `ended` (completed, failed
 * or cancelled), `parked` in `input_required`, was `interrupted` (handed back: it is still
 * `working`), its handler threw and is to be tried again (`retry`: still `working`), its handler
 * ended but the store did not take its ending (`unrecorded`: still `working`, to be run again — a
 * store failing over, say), or `skipped` (it was no longer `working`, or is gone).
 */
export type QueuedRunEnd = 'ended' | 'parked' | 'interrupted' | 'retry' | 'unrecorded' | 'skipped';
