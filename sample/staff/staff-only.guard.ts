import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { McpExecutionContext } from '../../src/index.js';

/**
 * An ordinary Nest guard on an MCP tool: it reads the HTTP request behind the call and lets staff
 * through when they present the staff token (`STAFF_TOKEN`, default 'staff').
 */
@Injectable()
export class StaffOnlyGuard implements CanActivate {
  constructor(private readonly config: ConfigService) {}

  canActivate(context: ExecutionContext): boolean {
    const request = McpExecutionContext.create(context).getHttpRequest();
    return request?.headers['x-staff-token'] === this.config.get<string>('STAFF_TOKEN', 'staff');
  }
}
