import { McpParamType } from '../decorators/mcp-param.decorators.js';

/** Maps `@McpArgs()` / `@McpCtx()` to the argument array our dispatcher invokes handlers with. */
export class McpParamsFactory {
  exchangeKeyForValue(type: number, data: unknown, args: unknown[]): unknown {
    if (type === McpParamType.Args) {
      const input = args[0] as Record<string, unknown> | undefined;
      return typeof data === 'string' && input ? input[data] : input;
    }
    if (type === McpParamType.Exchange) return args[1];
    return undefined;
  }
}
