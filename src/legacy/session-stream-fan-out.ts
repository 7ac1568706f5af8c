import { FanOutQueue } from '../events/fan-out-queue.js';
import type { McpEvent } from '../events/mcp-event-bus.js';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import type { LegacySessionState } from './legacy-session-state.js';

/**
 * Carries list_changed and resource updates to the GET streams of this node's 2025-era sessions:
 * list changes to every open stream, a resource update only to the sessions subscribed to its URI.
 * Kept apart from {@link LegacySessions}, which owns the states, so the bounding of sessions and the
 * delivery of events to them can be read on their own.
 */
export class SessionStreamFanOut {
  private readonly fanOuts = new FanOutQueue();

  /** `states` is the live map of this node's session states, read at the moment each event arrives. */
  constructor(private readonly states: ReadonlyMap<string, LegacySessionState>) {}

  /** Delivers `event` where it applies; task events are not a 2025-era session's concern. */
  readonly deliver = (event: McpEvent): void => {
    if (event.kind === 'resource_updated') this.resourceUpdated(event.uri);
    else if (event.kind === 'list_changed') this.broadcast(`notifications/${event.list}/list_changed`);
  };

  private broadcast(method: string): void {
    this.fanOut({ jsonrpc: '2.0', method }, method, () => true);
  }

  private resourceUpdated(uri: string): void {
    const notification = { jsonrpc: '2.0' as const, method: 'notifications/resources/updated', params: { uri } };
    this.fanOut(notification, `resource:${uri}`, (state) => state.subscriptions.has(uri));
  }

  /**
   * Sends `notification` to the streams of the sessions `wants` picks, in slices and in order: one
   * event to thousands of streams must not stall the calls meanwhile. A newer fan-out of the same
   * `key` replaces one that has not started (see {@link FanOutQueue}).
   */
  private fanOut(notification: JsonRpcNotification, key: string, wants: (state: LegacySessionState) => boolean): void {
    const listening: LegacySessionState[] = [];
    for (const state of this.states.values()) if (state.stream && wants(state)) listening.push(state);
    this.fanOuts.push(function* () {
      for (const state of listening) {
        state.stream?.send(notification);
        yield;
      }
    }, key);
  }
}
