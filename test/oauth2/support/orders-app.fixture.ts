import { Injectable, Module, type DynamicModule, type Type } from '@nestjs/common';
import { IsString } from 'class-validator';
import {
  ElicitationContext,
  McpModule,
  McpPrincipalSource,
  McpPrompt,
  McpTool,
  type McpExchange,
} from '../../../src/index.js';
import { McpOAuth2Module, McpScopes, type McpOAuth2Options } from '../../../src/oauth2/index.js';

export class PlaceOrderDto {
  @IsString() item!: string;
}

/** Every time a handler body starts, with the subject passport put on the request. */
export const handlerRuns: Array<{ tool: string; sub: string | null }> = [];

const subjectOf = (exchange: McpExchange): string | null => {
  if (exchange.transport.kind !== 'http') return null;
  const user = (exchange.transport.request as { user?: { sub?: string } }).user;
  return user?.sub ?? null;
};

/** The tools of a small order service: one open, one read-scoped, two that elicit a confirmation. */
@Injectable()
export class OrderTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'whoami', description: 'Says who is calling and with which scopes' })
  whoami(_input: unknown, exchange: McpExchange): object {
    const user =
      exchange.transport.kind === 'http'
        ? (exchange.transport.request as { user?: { sub: string; scopes: string[] } }).user
        : undefined;
    return { sub: user?.sub ?? null, scopes: user?.scopes ?? [] };
  }

  @McpTool({ name: 'list_orders', description: 'Lists the orders' })
  @McpScopes('orders:read')
  listOrders(): string {
    return 'no orders yet';
  }

  @McpTool({ name: 'place_order', description: 'Places an order once the user confirms it' })
  @McpScopes('orders:write')
  async placeOrder(input: PlaceOrderDto, exchange: McpExchange): Promise<string> {
    const sub = subjectOf(exchange);
    handlerRuns.push({ tool: 'place_order', sub });
    const answer = await this.elicitation.elicit(`Place an order for ${input.item}?`, (s) => s.boolean('ok'));
    return answer.action === 'accept' && answer.content.ok ? `placed ${input.item} for ${sub}` : 'not placed';
  }

  @McpTool({ name: 'confirm', description: 'Asks the user to confirm something' })
  async confirm(_input: unknown, exchange: McpExchange): Promise<string> {
    handlerRuns.push({ tool: 'confirm', sub: subjectOf(exchange) });
    const answer = await this.elicitation.elicit('Confirm?', (s) => s.boolean('ok'));
    return answer.action === 'accept' && answer.content.ok ? 'confirmed' : 'not confirmed';
  }
}

/** Prompts gated like tools: only callers with `orders:write` see or get this one. */
@Injectable()
export class OrderPrompts {
  @McpPrompt({ name: 'refund_letter', description: 'Drafts a refund letter' })
  @McpScopes('orders:write')
  refundLetter(): string {
    return 'Draft a polite refund letter.';
  }

  @McpPrompt({ name: 'greeting', description: 'Greets the customer' })
  greeting(): string {
    return 'Say hello to the customer.';
  }
}

/** An application's own principal source: the caller named in the `x-app-user` header. */
@Injectable()
export class HeaderPrincipalSource extends McpPrincipalSource {
  resolve(exchange: McpExchange): string | null {
    if (exchange.transport.kind !== 'http') return null;
    const value = exchange.transport.request.headers['x-app-user'];
    return typeof value === 'string' ? value : null;
  }
}

export interface OrdersAppOptions {
  /** Options of McpOAuth2Module; absent: the module is not imported. */
  readonly oauth2?: McpOAuth2Options;
  /** Import McpOAuth2Module before McpModule instead of after. */
  readonly oauth2First?: boolean;
  /** Pass the application's own principal source to McpModule. */
  readonly appPrincipalSource?: Type<McpPrincipalSource>;
}

export const MRTR_SECRET = 'oauth2-e2e-secret-0123456789abcdef0123456789';

/** Builds the application module for one test setup. */
export function ordersAppModule(options: OrdersAppOptions): Type {
  const mcp = McpModule.forRoot({
    name: 'orders',
    version: '1.0.0',
    mrtr: { secrets: [MRTR_SECRET] },
    ...(options.appPrincipalSource ? { principalSource: options.appPrincipalSource } : {}),
  });
  const imports: DynamicModule[] = [mcp];
  if (options.oauth2) {
    const oauth2 = McpOAuth2Module.forRoot(options.oauth2);
    if (options.oauth2First) imports.unshift(oauth2);
    else imports.push(oauth2);
  }

  @Module({ imports, providers: [OrderTools, OrderPrompts] })
  class OrdersAppModule {}
  return OrdersAppModule;
}
