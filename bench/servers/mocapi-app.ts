/**
 * The application our two targets (Fastify and Express) serve: `McpModule.forRoot` with an MRTR
 * secret, a `BenchTools` provider with `add` and `confirm_add` (elicits a yes/no through the
 * injected `ElicitationContext`), and TOOLS - 2 generated filler tools, each with its own
 * class-validator DTO. The fillers get their decorators applied by hand, exactly as TypeScript's
 * emit applies them (design:* metadata first, then the decorators).
 */
import 'reflect-metadata';

import { Injectable, Module, type Type } from '@nestjs/common';
import { IsBoolean, IsInt, IsNumber, IsOptional, IsString } from 'class-validator';

import { ElicitationContext, McpModule, McpProperty, McpTool } from '../../src/index.js';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { ADD_TOOL, BENCH_MRTR_SECRET, CONFIRM_ADD_TOOL, fillerTools, type FillerField } from '../shared/bench-spec.js';

class AddDto {
  @IsNumber() a!: number;
  @IsNumber() b!: number;
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

/** A provider with `total - 2` filler tools, each method taking its own generated DTO. */
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
      McpModule.forRoot({ name: 'bench', version: '1.0.0', mrtr: { secrets: [BENCH_MRTR_SECRET] } }),
      // MOCAPI_BENCH_OTEL=1: the OpenTelemetry entry registered, no SDK (what its no-op path costs).
      ...(process.env['MOCAPI_BENCH_OTEL'] === '1' ? [McpOpenTelemetryModule.forRoot()] : []),
    ],
    providers: [BenchTools, fillerProvider(totalTools)],
  })
  class AppModule {}
  return AppModule;
}
