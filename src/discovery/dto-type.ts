import { ROUTE_ARGS_METADATA } from '../decorators/mcp-metadata.constants.js';
import { McpParamType } from '../decorators/mcp-param.decorators.js';

const NOT_DTOS: ReadonlySet<unknown> = new Set([
  Object,
  String,
  Number,
  Boolean,
  Array,
  Promise,
  Function,
  Symbol,
  BigInt,
  Date,
  Map,
  Set,
  undefined,
]);

/** A user-written class (not a built-in), i.e. something class-validator metadata may hang on. */
export function isDtoClass(type: unknown): type is Function {
  return typeof type === 'function' && !NOT_DTOS.has(type);
}

/**
 * The DTO class of a handler's input: the type of the `@McpArgs()` parameter (without a property
 * name), else of the first parameter.
 */
export function inputDtoOf(prototype: object, methodName: string): Function | undefined {
  const paramTypes: unknown[] = Reflect.getMetadata('design:paramtypes', prototype, methodName) ?? [];
  const params: Record<string, { index: number; data?: string }> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, prototype.constructor, methodName) ?? {};
  const argsParam = Object.entries(params).find(([key, p]) => key.startsWith(`${McpParamType.Args}:`) && !p.data);
  const index = argsParam ? argsParam[1].index : Object.keys(params).length > 0 ? -1 : 0;
  const type = index >= 0 ? paramTypes[index] : undefined;
  return isDtoClass(type) ? type : undefined;
}

/** The DTO class a handler declares as its (synchronous) return type, if any. */
export function outputDtoOf(prototype: object, methodName: string): Function | undefined {
  const type: unknown = Reflect.getMetadata('design:returntype', prototype, methodName);
  return isDtoClass(type) ? type : undefined;
}
