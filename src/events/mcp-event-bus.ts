import type { McpTaskStore } from '../task-store/mcp-task.store.js';

/** The names the package's own code uses for {@link McpEventBus.Event} and {@link McpEventBus.Listener}. */
export type McpEvent = McpEventBus.Event;
export type McpEventListener = McpEventBus.Listener;

/**
 * Carries {@link McpEventBus.Event}s to the `subscriptions/listen` streams and 2025-era session
 * streams. An abstract class, so DI can swap it: the default delivers within this process; an
 * integration module (e.g. `@mocapi/nestjs/redis`) carries events to every node, so a stream open on
 * one node hears of an update raised on another.
 *
 * @publicApi
 */
export abstract class McpEventBus {
  /** Delivers `event` once to every listener, on this node at once and on the others when shared. */
  abstract publish(event: McpEventBus.Event): void;

  /** Adds a listener; the returned function removes it. */
  abstract subscribe(listener: McpEventBus.Listener): () => void;
}

// A namespace of types only, merged with the class: what a bus carries and who hears it.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace McpEventBus {
  /**
   * Something every listener of every node should hear about: a list changed (it drives
   * `notifications/{tools,prompts,resources}/list_changed`), a resource was updated (it drives
   * `notifications/resources/updated` to the streams subscribed to its URI), or a task's status or
   * status message changed (it drives `notifications/tasks` to the streams listing the task).
   * `server` is the `path` of the server it happened on, set when the bus is shared by the servers
   * of an application (only that server's streams hear it).
   */
  export type Event = (
    | { readonly kind: 'list_changed'; readonly list: 'tools' | 'prompts' | 'resources' }
    | { readonly kind: 'resource_updated'; readonly uri: string }
    | { readonly kind: 'task_changed'; readonly task: McpTaskStore.TaskRecord }
  ) & { readonly server?: string };

  /** Hears every published {@link McpEventBus.Event}. */
  export type Listener = (event: Event) => void;
}
