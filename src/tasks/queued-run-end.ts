/**
 * What became of a queued run (`McpTaskRunner.execute`): the task `ended` (completed, failed
 * or cancelled), `parked` in `input_required`, was `interrupted` (handed back: it is still
 * `working`), its handler threw and is to be tried again (`retry`: still `working`), or `skipped`
 * (it was no longer `working`, or is gone).
 */
export type QueuedRunEnd = 'ended' | 'parked' | 'interrupted' | 'retry' | 'skipped';
