import { IS_ENUM, IS_IN, ValidationTypes } from 'class-validator';
import type { PromptArgument } from '../protocol/wire-types.js';
import { dtoModel, type ValidationRule } from './dto-metadata.js';
import { enumValues } from './dto-schema-keywords.js';

/**
 * The MCP prompt arguments of a DTO, in property order: `name`, then `title` and `description`
 * from `@McpProperty()`, and `required` unless the property has `@IsOptional()` /
 * `@ValidateIf()` or a field initializer. Prompt arguments travel as strings, so only
 * string-valued properties make sense in a prompt DTO.
 *
 * Returns a new array each time (it is meant for startup); the class is read once and cached.
 */
export function dtoToPromptArguments(dto: Function): PromptArgument[] {
  return dtoModel(dto).properties.map((property) => {
    const argument: PromptArgument = { name: property.name };
    if (property.mcp?.title !== undefined) argument.title = property.mcp.title;
    if (property.mcp?.description !== undefined) argument.description = property.mcp.description;
    argument.required = !property.optional;
    return argument;
  });
}

const allowedValuesCache = new WeakMap<Function, ReadonlyMap<string, readonly string[]>>();

/**
 * The values `@IsIn()` / `@IsEnum()` admit for `property` of `dto`, as strings (what
 * `completion/complete` returns), or `undefined` when the property is not restricted to a list
 * (or does not exist). With both decorators, only values both admit. Cached per class; the
 * returned array is a copy the caller may keep or change.
 */
export function dtoAllowedValues(dto: Function, property: string): string[] | undefined {
  let byProperty = allowedValuesCache.get(dto);
  if (!byProperty) {
    byProperty = allowedValuesOf(dto);
    allowedValuesCache.set(dto, byProperty);
  }
  return byProperty.get(property)?.slice();
}

function allowedValuesOf(dto: Function): ReadonlyMap<string, readonly string[]> {
  const byProperty = new Map<string, readonly string[]>();
  for (const property of dtoModel(dto).properties) {
    // `{ each: true }` lists restrict the elements of an array argument: still the values to offer.
    let allowed: unknown[] | undefined;
    for (const rule of [...property.rules, ...property.eachRules]) {
      const values = listedValues(rule);
      if (values) allowed = allowed === undefined ? values : allowed.filter((value) => values.includes(value));
    }
    if (allowed) byProperty.set(property.name, Object.freeze([...new Set(allowed.map(String))]));
  }
  return byProperty;
}

function listedValues(rule: ValidationRule): unknown[] | undefined {
  if (rule.type !== ValidationTypes.CUSTOM_VALIDATION) return undefined;
  const constraints: readonly unknown[] = Array.isArray(rule.constraints) ? rule.constraints : [];
  if (rule.name === IS_IN) return Array.isArray(constraints[0]) ? (constraints[0] as unknown[]) : [];
  if (rule.name === IS_ENUM) return enumValues(constraints[0]);
  return undefined;
}
