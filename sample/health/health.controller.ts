import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { McpHealthIndicator } from '../../src/terminus/index.js';

/** GET /health for a load balancer: 200 when the MCP server is ready, 503 with the reason otherwise. */
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
