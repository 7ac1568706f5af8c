import { TaskAbortedError } from '../task-store/task-aborted.error.js';

/** Why a task's handler was stopped: the node shuts down. */
export function shutdownReason(): TaskAbortedError {
  return new TaskAbortedError('The server is shutting down', 'shutdown');
}

/** Whether a handler's abort reason is the node's shutdown. */
export function isShutdown(reason: unknown): boolean {
  return reason instanceof TaskAbortedError && reason.reason === 'shutdown';
}

/** Why a task's handler was stopped: the task was cancelled (on any node). */
export function cancelledReason(): TaskAbortedError {
  return new TaskAbortedError('The task was cancelled', 'cancelled');
}

/** Why a task's handler was stopped: the task ended (its handler returned, or it ended elsewhere). */
export function endedReason(): TaskAbortedError {
  return new TaskAbortedError('The task ended');
}

/** Resolves when `signal` aborts because the node shuts down (never, for any other reason). */
export function whenShutDown(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => {
      if (isShutdown(signal.reason)) resolve();
    }),
  );
}
