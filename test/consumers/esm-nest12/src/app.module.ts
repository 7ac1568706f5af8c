import { Module } from '@nestjs/common';
import { McpModule } from '@mocapi/nestjs';
import { OrderTools } from './order.tools.js';

@Module({
  imports: [
    McpModule.forRoot({
      name: 'orders',
      version: '1.0.0',
      mrtr: { secrets: [process.env.MCP_STATE_SECRET ?? 'a-consumer-test-secret-of-32-chars!'] },
    }),
  ],
  providers: [OrderTools],
})
export class AppModule {}
