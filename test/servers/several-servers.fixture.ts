import { Injectable, Module, type Type } from '@nestjs/common';
import { ElicitationContext, McpModule, type McpModuleOptions, McpTool } from '../../src/index.js';
import { McpOAuth2Module } from '../../src/oauth2/index.js';

export const SECRET = 'several-servers-secret-0123456789abcdef0123';

/** Read-only tools of the public server. */
@Injectable()
class MenuTools {
  @McpTool({ description: "Today's menu" })
  menu(): string {
    return 'soup, bread';
  }
}

/** Staff tools, behind OAuth. */
@Injectable()
class StaffTools {
  @McpTool({ description: 'Refunds a bill' })
  refund(): string {
    return 'refunded';
  }
}

/** Served by both servers (its module is in both `include` lists): a tool that asks first. */
@Injectable()
class AskTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ description: 'Asks for a confirmation' })
  async confirm(): Promise<string> {
    const answer = await this.elicitation.elicit('Sure?', (s) => s.boolean('ok'));
    return answer.action === 'accept' && answer.content.ok ? 'confirmed' : 'not confirmed';
  }
}

@Module({ providers: [MenuTools] })
export class MenuModule {}

@Module({ providers: [StaffTools] })
export class StaffModule {}

@Module({ providers: [AskTools] })
export class AskModule {}

/**
 * One application, two MCP servers: the public one at /mcp (no authentication, though the
 * application imports the OAuth2 module) and the staff one at /mcp/staff behind OAuth2.
 */
export function twoServersModule(
  oauth2: { issuer: string; audience: string },
  extra: Partial<McpModuleOptions> = {},
): Type {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'bistro',
        version: '1.0.0',
        mrtr: { secrets: [SECRET] },
        include: [MenuModule, AskModule],
        httpAuthenticator: false,
      }),
      McpModule.forRoot({
        name: 'bistro-staff',
        version: '1.0.0',
        path: '/mcp/staff',
        mrtr: { secrets: [SECRET] },
        include: [StaffModule, AskModule],
        isGlobal: false,
        ...extra,
      }),
      McpOAuth2Module.forRoot({ ...oauth2, requiredScopes: ['mcp:tools'] }),
      MenuModule,
      StaffModule,
      AskModule,
    ],
  })
  class TwoServersModule {}
  return TwoServersModule;
}
