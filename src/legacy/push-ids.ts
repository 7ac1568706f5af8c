import { randomBytes } from 'node:crypto';

/**
 * This process's share of pushed-request ids: random, so two nodes never hand out the same id (an
 * answer that reaches the wrong node finds nothing waiting there instead of settling another call's
 * question), and readable back from an id, so a shared backplane can route the answer to its node.
 */
export const LOCAL_PUSH_NODE = randomBytes(6).toString('base64url');

const PUSH_ID = /^mocapi-([A-Za-z0-9_-]{8})-\d+$/;
let pushCounter = 0;

/** A fresh id for a server-to-client request: `mocapi-<node>-<counter>`. */
export function nextPushId(): string {
  return `mocapi-${LOCAL_PUSH_NODE}-${++pushCounter}`;
}

/** The node that pushed the request with this id, or undefined when the id is none of ours. */
export function pushNodeOf(id: string): string | undefined {
  return PUSH_ID.exec(id)?.[1];
}
