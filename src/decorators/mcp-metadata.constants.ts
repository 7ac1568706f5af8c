/** Reflect-metadata keys written by our decorators and read by the explorer. */
export const MCP_TOOL_METADATA = 'mocapi:tool';
export const MCP_PROMPT_METADATA = 'mocapi:prompt';
export const MCP_RESOURCE_METADATA = 'mocapi:resource';
export const MCP_RESOURCE_TEMPLATE_METADATA = 'mocapi:resource-template';
/** Nest's own key for handler parameter metadata, shared with ExternalContextCreator. */
export const ROUTE_ARGS_METADATA = '__routeArguments__';
