import { Controller, Get, Injectable, Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { McpModule, McpPrompt, McpTool } from '../../src/index.js';
import { McpHealthIndicator, McpHealthModule } from '../../src/terminus/index.js';

export const SECRET = 'health-e2e-secret-of-at-least-32-characters!';

@Injectable()
export class HealthTools {
  @McpTool({ description: 'Says hello' })
  greet(): string {
    return 'Hello!';
  }

  @McpTool({ description: 'Says goodbye' })
  farewell(): string {
    return 'Bye!';
  }

  @McpPrompt({ description: 'A greeting prompt' })
  welcome(): string {
    return 'Welcome';
  }
}

/** The route a load balancer polls: terminus answers 200 when every indicator is up, else 503. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mcp: McpHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.mcp.isHealthy('mcp')]);
  }
}

@Module({ imports: [TerminusModule, McpHealthModule], controllers: [HealthController] })
export class HealthModule {}

@Module({})
class HealthApp {}

/** An MCP server with a terminus /health route, plus whatever else the test imports. */
export function healthApp(options: { secrets?: string[]; imports?: ModuleMetadata['imports'] } = {}): DynamicModule {
  return {
    module: HealthApp,
    providers: [HealthTools],
    imports: [
      McpModule.forRoot({ name: 'health-e2e', version: '1.2.3', mrtr: { secrets: options.secrets } }),
      HealthModule,
      ...(options.imports ?? []),
    ],
  };
}

/** The staff server's tool: one tool, no prompt. */
@Injectable()
export class StaffHealthTools {
  @McpTool({ description: 'Closes the till' })
  closeTill(): string {
    return 'closed';
  }
}

@Module({ providers: [HealthTools] })
class PublicToolsModule {}

@Module({ providers: [StaffHealthTools] })
class StaffToolsModule {}

@Module({})
class TwoServersHealthApp {}

/**
 * Two MCP servers in one application, each with its own tools (`include`): the global one at /mcp
 * and a staff one at /mcp/staff; `staffSecrets` is the staff server's key ring (none by default).
 */
export function twoServersHealthApp(options: { staffSecrets?: string[] } = {}): DynamicModule {
  return {
    module: TwoServersHealthApp,
    imports: [
      McpModule.forRoot({
        name: 'health-e2e',
        version: '1.2.3',
        mrtr: { secrets: [SECRET] },
        include: [PublicToolsModule],
      }),
      McpModule.forRoot({
        name: 'health-e2e-staff',
        version: '2.0.0',
        path: '/mcp/staff',
        isGlobal: false,
        eras: ['modern'],
        mrtr: { secrets: options.staffSecrets },
        include: [StaffToolsModule],
      }),
      PublicToolsModule,
      StaffToolsModule,
      HealthModule,
    ],
  };
}
