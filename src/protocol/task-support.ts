import type { ClientCapabilities } from './wire-types.js';

/** The extension identifier of SEP-2663 tasks, as advertised in `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * How a tool takes part in the tasks extension (the spec's `taskSupport` vocabulary):
 * `'optional'` runs as a task when the client declared the extension on the request and
 * synchronously otherwise; `'required'` runs only as a task, and a client without the extension
 * gets -32021 with `data.requiredCapabilities.extensions["io.modelcontextprotocol/tasks"]`
 * (`McpToolOptions.taskSupport`).
 */
export type McpTaskSupport = 'optional' | 'required';

/**
 * When the task of a task-supporting call comes to exist: `'immediate'` (default) answers the
 * `tools/call` with the task at once and runs the whole handler in the background; `'handler'`
 * runs the handler in the request until it calls `McpTaskContext.start()`, so the questions it
 * asks before that are answered synchronously (multi round-trip) and the task starts afterwards
 * (`McpToolOptions.taskCreation`).
 */
export type McpTaskCreation = 'immediate' | 'handler';

/** Whether the request's capabilities declare the tasks extension (the per-request opt-in). */
export function declaresTasks(capabilities: Readonly<ClientCapabilities>): boolean {
  const extensions = capabilities.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

/** What -32021 names as missing when a client without the extension needs it. */
export const REQUIRED_TASKS_CAPABILITY: Readonly<Record<string, unknown>> = Object.freeze({
  extensions: { [TASKS_EXTENSION]: {} },
});
