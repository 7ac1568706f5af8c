import { Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { McpModule } from '../src/index.js';
import { McpThrottlerModule } from '../src/throttler/index.js';
import { McpAppsModule } from '../src/apps/index.js';
import { McpSkillsModule } from '../src/skills/index.js';
import { SEATING_PICKER_APP } from './apps/seating-picker.app.js';
import { BookingModule } from './booking/booking.module.js';
import { StaffModule } from './staff/staff.module.js';
import { HealthModule } from './health/health.module.js';
import { staffSignIn } from './sign-in/staff-sign-in.js';
import { gatewayUpstreams } from './gateway/gateway-upstreams.js';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true }),
    // Two MCP servers: the guests' at /mcp (the booking tools) and the staff's at /mcp/staff.
    McpModule.forRootAsync({
      imports: [ConfigModule],
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({
        name: 'bistro',
        title: 'Bistro table bookings',
        version: '1.0.0',
        instructions: 'Use find_tables to see free seatings, then book_table to reserve one.',
        // Comma-separated; the first secret seals, all of them open (rotate by prepending).
        mrtr: { secrets: config.get<string>('MCP_STATE_SECRETS')?.split(',').filter(Boolean) },
        include: [BookingModule],
        // The guests' server stays open when the staff's signs in (below).
        httpAuthenticator: false,
        // Its Server Card, at /mcp/server-card: what registries and hosts read before they connect.
        // With MCP_PUBLIC_URL set (the application's external origin) it lists this endpoint there.
        card: {
          name: 'com.example.bistro/bookings',
          description: 'Finds free tables at the bistro and books one for a guest',
          baseUrl: config.get<string>('MCP_PUBLIC_URL'),
        },
      }),
    }),
    McpModule.forRootAsync({
      isGlobal: false,
      imports: [ConfigModule],
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({
        name: 'bistro-staff',
        title: 'Bistro staff tools',
        version: '1.0.0',
        path: '/mcp/staff',
        mrtr: { secrets: config.get<string>('MCP_STATE_SECRETS')?.split(',').filter(Boolean) },
        include: [StaffModule],
        card: {
          name: 'com.example.bistro/staff',
          description: "Lists and cancels the bistro's bookings, for its staff",
          baseUrl: config.get<string>('MCP_PUBLIC_URL'),
        },
      }),
    }),
    // With MCP_AUTH_UPSTREAM_ISSUER set: the staff sign in at their identity provider (sign-in/).
    ...staffSignIn(),
    // Rate limiting (MCP tools, prompts, resources only): 120 calls a minute per caller and per tool.
    McpThrottlerModule.forRoot([{ name: 'default', ttl: 60_000, limit: 120 }]),
    // MCP Apps: find_tables opens the seating picker in hosts that render apps.
    McpAppsModule.forRoot({ apps: [SEATING_PICKER_APP] }),
    // Agent Skills: sample/skills/book-a-table teaches a model when to call find_tables and book_table.
    McpSkillsModule.forRoot({ directories: ['sample/skills'] }),
    BookingModule,
    StaffModule,
    // GET /health (@nestjs/terminus): 503 until MCP_STATE_SECRETS is set, so a load balancer skips the node.
    HealthModule,
    // With MCP_GATEWAY_UPSTREAMS set (`prefix=url,...`): other MCP servers mounted into /mcp (gateway/).
    ...gatewayUpstreams(),
  ],
})
export class AppModule {}
