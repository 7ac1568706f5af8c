import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpExchange } from '../protocol/mcp-exchange.js';

/** The exchange of the MCP call in progress, for injectable helpers (progress, client logging). */
export const exchangeStorage = new AsyncLocalStorage<McpExchange>();
