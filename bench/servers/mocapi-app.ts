/**
 * The application our two targets (Fastify and Express) serve: `McpModule.forRoot` with an MRTR
 * secret and a page size that holds the largest list in one page, a `BenchTools` provider with
 * `add`, `confirm_add` (elicits a yes/no through the injected `ElicitationContext`) and
 * `confirm_steps` (elicits `steps` of them, one after the other), and TOOLS - 3 generated filler tools, each with its own
 * class-validator DTO. The fillers get their decorators applied by hand, exactly as TypeScript's
 * emit applies them (design:* metadata first, then the decorators).
 */
import 'reflect-metadata';

import { type CanActivate, type DynamicModule, Injectable, Module, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IsBoolean, IsInt, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';

import { ElicitationContext, McpModule, McpProperty, McpTool } from '../../src/index.js';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { McpThrottlerModule } from '../../src/throttler/index.js';
import type { ThrottlerStorage } from '@nestjs/throttler';
import {
  ADD_TOOL,
  BENCH_MRTR_SECRET,
  BENCH_PAGE_SIZE,
  CONFIRM_ADD_TOOL,
  CONFIRM_STEPS_TOOL,
  fillerTools,
  stepMessage,
  type FillerField,
} from '../shared/bench-spec.js';

class AddDto {
  @IsNumber() a!: number;
  @IsNumber() b!: number;
}

class StepsDto extends AddDto {
  @IsInt() @Min(1) @Max(CONFIRM_STEPS_TOOL.maxSteps) steps!: number;
}

@Injectable()
class BenchTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: ADD_TOOL.name, description: ADD_TOOL.description })
  add(input: AddDto): string {
    return String(input.a + input.b);
  }

  @McpTool({ name: CONFIRM_ADD_TOOL.name, description: CONFIRM_ADD_TOOL.description })
  async confirmAdd(input: AddDto): Promise<string> {
    const answer = await this.elicitation.elicit(CONFIRM_ADD_TOOL.message, (s) => s.boolean(CONFIRM_ADD_TOOL.field));
    return answer.action === 'accept' && answer.content.ok ? String(input.a + input.b) : 'cancelled';
  }

  @McpTool({ name: CONFIRM_STEPS_TOOL.name, description: CONFIRM_STEPS_TOOL.description })
  async confirmSteps(input: StepsDto): Promise<string> {
    for (let step = 1; step <= input.steps; step++) {
      const answer = await this.elicitation.elicit(stepMessage(step, input.steps), (s) =>
        s.boolean(CONFIRM_STEPS_TOOL.field),
      );
      if (answer.action !== 'accept' || !answer.content.ok) return 'cancelled';
    }
    return String(input.a + input.b);
  }
}

const FIELD_DESIGN_TYPE = { string: String, integer: Number, number: Number, boolean: Boolean } as const;

/** What `@McpProperty({ description }) @IsX() [@IsOptional()] name!: T;` compiles to. */
function decorateDtoField(proto: object, field: FillerField): void {
  Reflect.defineMetadata('design:type', FIELD_DESIGN_TYPE[field.kind], proto, field.name);
  if (field.optional) IsOptional()(proto, field.name);
  const validator =
    field.kind === 'string'
      ? IsString()
      : field.kind === 'integer'
        ? IsInt()
        : field.kind === 'number'
          ? IsNumber()
          : IsBoolean();
  validator(proto, field.name);
  McpProperty({ description: field.description })(proto, field.name);
}

/** A provider with `total - 3` filler tools, each method taking its own generated DTO. */
function fillerProvider(total: number): Type<unknown> {
  class FillerTools {}
  const proto = FillerTools.prototype as unknown as Record<string, unknown>;
  for (const tool of fillerTools(total)) {
    const dto = class {};
    Object.defineProperty(dto, 'name', { value: `${tool.name}_Dto` });
    for (const field of tool.fields) decorateDtoField(dto.prototype, field);
    proto[tool.name] = function filler(): string {
      return 'ok';
    };
    // What `@McpTool({...}) filler_001(input: Dto): string` compiles to.
    Reflect.defineMetadata('design:type', Function, proto, tool.name);
    Reflect.defineMetadata('design:paramtypes', [dto], proto, tool.name);
    Reflect.defineMetadata('design:returntype', String, proto, tool.name);
    const descriptor = Object.getOwnPropertyDescriptor(proto, tool.name)!;
    const replaced = McpTool({ name: tool.name, description: tool.description })(proto, tool.name, descriptor);
    if (replaced) Object.defineProperty(proto, tool.name, replaced);
  }
  Injectable()(FillerTools);
  return FillerTools;
}

/** The benchmark AppModule with `totalTools` tools. */
export function buildAppModule(totalTools: number): Type<unknown> {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'bench',
        version: '1.0.0',
        pageSize: BENCH_PAGE_SIZE,
        mrtr: { secrets: [BENCH_MRTR_SECRET] },
      }),
      // MOCAPI_BENCH_OTEL=1: the OpenTelemetry entry registered, no SDK (what its no-op path costs).
      ...(process.env['MOCAPI_BENCH_OTEL'] === '1' ? [McpOpenTelemetryModule.forRoot()] : []),
      // MOCAPI_BENCH_THROTTLE=1: the throttler guard counting every call (a limit never reached) in
      // throttler's own in-memory storage; =fixed: in a fixed-window counter (the guard's own cost).
      ...throttling(process.env['MOCAPI_BENCH_THROTTLE']),
    ],
    providers: [BenchTools, fillerProvider(totalTools)],
  })
  class AppModule {}
  return AppModule;
}

/** A fixed-window counter per key: what a Redis INCR + EXPIRE storage does, in memory. */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

class FixedWindowStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, { hits: number; resetAt: number }>();

  async increment(key: string, ttl: number): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) this.windows.set(key, (window = { hits: 0, resetAt: now + ttl }));
    window.hits++;
    const timeToExpire = Math.ceil((window.resetAt - now) / 1000);
    return { totalHits: window.hits, timeToExpire, isBlocked: false, timeToBlockExpire: 0 };
  }
}

function throttling(mode: string | undefined): Array<DynamicModule | Type<unknown>> {
  if (mode === 'noop') return [NoopGuardModule];
  if (mode !== '1' && mode !== 'fixed') return [];
  const throttlers = [{ name: 'default', ttl: 60_000, limit: Number.MAX_SAFE_INTEGER }];
  return [
    McpThrottlerModule.forRoot(mode === 'fixed' ? { throttlers, storage: new FixedWindowStorage() } : throttlers),
  ];
}

/** MOCAPI_BENCH_THROTTLE=noop: a global guard that passes (what any global guard costs). */
@Injectable()
class PassingGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Module({ providers: [{ provide: APP_GUARD, useClass: PassingGuard }] })
class NoopGuardModule {}
