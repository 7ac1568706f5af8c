/** Method names of 2026-07-28 that this server answers. */
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

export type McpMethod = (typeof McpMethod)[keyof typeof McpMethod];

/** The only methods that may answer `input_required` (SEP-2322). */
export const MRTR_METHODS: ReadonlySet<string> = new Set([McpMethod.ToolsCall, McpMethod.PromptsGet, McpMethod.ResourcesRead]);
