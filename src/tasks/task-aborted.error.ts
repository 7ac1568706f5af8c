import { IntrinsicException } from '@nestjs/common';

/**
 * The reason a task's handler signal is aborted with (cancelled, past its ttlMs, server shutting
 * down). Intrinsic, so a handler that rejects with it is not logged as a server error by Nest: the
 * stop was asked for.
 *
 * @publicApi
 */
export class TaskAbortedError extends IntrinsicException {
  constructor(message: string) {
    super(message);
    this.name = 'TaskAbortedError';
  }
}
