/** Reflect-metadata keys written by our decorators and read by the explorer. */
export const MCP_TOOL_METADATA = 'mocapi:tool';
export const MCP_PROMPT_METADATA = 'mocapi:prompt';
export const MCP_RESOURCE_METADATA = 'mocapi:resource';
export const MCP_RESOURCE_TEMPLATE_METADATA = 'mocapi:resource-template';
/**
 * Nest's key for handler parameter metadata (the one `createParamDecorator` writes). Ours share it
 * so an application's custom parameter decorators work on MCP handlers as on routes; Nest exports
 * it only from a deep path, so it is spelled out here.
 */
export const ROUTE_ARGS_METADATA = '__routeArguments__';
