import { McpAccessPolicy } from './mcp-access-policy.js';

/** The core default: every caller sees and may use everything. */
export class AllowAllAccessPolicy extends McpAccessPolicy {
  isVisible(): boolean {
    return true;
  }

  assertAllowed(): void {}
}
