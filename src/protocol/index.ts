export * from './protocol-version.js';
export * from './meta-keys.js';
export * from './mcp-error-codes.js';
export * from './mcp.error.js';
export * from './json-rpc.js';
export * from './wire-types.js';
export * from './mcp-methods.js';
