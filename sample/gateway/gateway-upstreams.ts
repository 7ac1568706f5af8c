import type { DynamicModule } from '@nestjs/common';
import { McpClientModule, type McpClientServerOptions } from '../../src/client/index.js';
import { McpGatewayModule } from '../../src/gateway/index.js';

/**
 * With `MCP_GATEWAY_UPSTREAMS` set (comma-separated `prefix=url`, e.g.
 * `ref=http://127.0.0.1:3321/mcp`), the guests' server `/mcp` also serves each upstream's tools,
 * prompts and resources, named `<prefix>_<name>`; their questions reach the guest through our own
 * elicitation. Without it, nothing is added.
 */
export function gatewayUpstreams(env: NodeJS.ProcessEnv = process.env): DynamicModule[] {
  const entries = (env['MCP_GATEWAY_UPSTREAMS'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return [];
  const servers: Record<string, McpClientServerOptions> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const prefix = entry.slice(0, at).trim();
    const url = entry.slice(at + 1).trim();
    if (at < 1 || url === '') throw new Error(`MCP_GATEWAY_UPSTREAMS: "${entry}" is not prefix=url`);
    servers[prefix] = {
      url,
      // 2026-07-28 when the upstream speaks it (stateless: its questions ride in our requestState),
      // else the 2025 era; elicitation declared so the upstream may ask the guest questions.
      clientOptions: {
        versionNegotiation: { mode: 'auto' },
        capabilities: { elicitation: { form: {} } },
        inputRequired: { autoFulfill: false },
      },
    };
  }
  return [
    McpClientModule.forRoot({ servers }),
    McpGatewayModule.forRoot({ upstreams: Object.keys(servers).map((prefix) => ({ client: prefix, prefix })) }),
  ];
}
