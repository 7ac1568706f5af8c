// What a server of bench/idle-streams.ts (the Nest app of server.ts, or a floor of bare-server.ts)
// answers its parent over IPC: its memory after a forced GC, its open file descriptors, its GC
// totals, and heap snapshots.
import { readdirSync, readFileSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';
import { gcTotals } from './gc-totals.js';

export interface ServerMeasure {
  rssKb: number;
  heapUsedKb: number;
  externalKb: number;
  fds: number;
}

/** VmRSS of this process, in KB, as the kernel counts it (the process's resident pages only). */
function rssKb(): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(line?.[1] ?? NaN);
}

/**
 * Full collections with a turn of the event loop between them, so that what weak callbacks and
 * finalizers let go (Node's AbortSignal and EventTarget hold some) is gone too; then the figures.
 */
export async function measure(): Promise<ServerMeasure> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the server must run with --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const memory = process.memoryUsage();
  return {
    rssKb: rssKb(),
    heapUsedKb: Math.round(memory.heapUsed / 1024),
    externalKb: Math.round(memory.external / 1024),
    fds: readdirSync('/proc/self/fd').length,
  };
}

/** Answers the parent's `measure`, `gc` and `snapshot` asks for as long as the process runs. */
export function answerParent(): void {
  process.on('message', (ask: { id: number; op: 'measure' | 'snapshot' | 'gc'; file?: string }) => {
    if (ask.op === 'gc') process.send!({ id: ask.id, gc: gcTotals() });
    if (ask.op === 'measure') void measure().then((m) => process.send!({ id: ask.id, measure: m }));
    if (ask.op === 'snapshot') process.send!({ id: ask.id, file: writeHeapSnapshot(ask.file) });
  });
}
