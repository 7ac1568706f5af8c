import { InvalidRequestStateException } from './invalid-request-state.exception.js';

/**
 * The requestState was genuine but too old: either the client took longer than the per-round TTL
 * to answer (`expired`) or the whole flow outlived its maximum lifetime (`flow_expired`). A
 * subclass, so code that handles invalid tokens handles these too.
 */
export class ExpiredRequestStateException extends InvalidRequestStateException {
  declare readonly reason: 'expired' | 'flow_expired';

  constructor(reason: 'expired' | 'flow_expired') {
    super(reason);
    this.name = 'ExpiredRequestStateException';
  }
}
