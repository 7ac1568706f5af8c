import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { McpHealthModule } from '../../src/terminus/index.js';
import { HealthController } from './health.controller.js';

@Module({ imports: [TerminusModule, McpHealthModule], controllers: [HealthController] })
export class HealthModule {}
