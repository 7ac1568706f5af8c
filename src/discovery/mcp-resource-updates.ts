import { Injectable } from '@nestjs/common';

type UpdateListener = (uri: string) => void;

/**
 * Tells `subscriptions/listen` streams that a resource changed: call `notifyUpdated(uri)` and
 * every stream subscribed to that URI gets `notifications/resources/updated`.
 *
 * @publicApi
 */
@Injectable()
export class McpResourceUpdates {
  private readonly listeners = new Set<UpdateListener>();

  notifyUpdated(uri: string): void {
    for (const listener of this.listeners) listener(uri);
  }

  onUpdated(listener: UpdateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
