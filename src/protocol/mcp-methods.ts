/**
 * Method names of 2026-07-28 that this server answers. Removed methods (`initialize`, `ping`,
 * `logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`) get -32601 with HTTP 404.
 */
export const McpMethod = {
  Discover: 'server/discover',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  PromptsList: 'prompts/list',
  PromptsGet: 'prompts/get',
  ResourcesList: 'resources/list',
  ResourcesTemplatesList: 'resources/templates/list',
  ResourcesRead: 'resources/read',
  CompletionComplete: 'completion/complete',
  SubscriptionsListen: 'subscriptions/listen',
} as const;

/** One of the method names listed in {@link McpMethod}. */
export type McpMethod = (typeof McpMethod)[keyof typeof McpMethod];

/**
 * The only methods that may answer `input_required` (SEP-2322) and accept `inputResponses` /
 * `requestState`; they are also the ones whose HTTP requests carry an `Mcp-Name` header.
 */
export const MRTR_METHODS: ReadonlySet<string> = new Set([
  McpMethod.ToolsCall,
  McpMethod.PromptsGet,
  McpMethod.ResourcesRead,
]);

/**
 * The methods of the `io.modelcontextprotocol/tasks` extension. Their HTTP requests carry the task
 * id in the `Mcp-Name` header (SEP-2663 routing headers).
 */
export const TaskMethod = {
  Get: 'tasks/get',
  Update: 'tasks/update',
  Cancel: 'tasks/cancel',
} as const;

/** The extension's methods, as a set. */
export const TASK_METHODS: ReadonlySet<string> = new Set(Object.values(TaskMethod));
