import type { JsonSchema } from '../protocol/wire-types.js';
import { DtoDefinitionError } from './dto-definition.error.js';
import { dtoModel, type DtoPropertyModel } from './dto-metadata.js';
import { draftFromRules, renderDraft, type JsonType } from './dto-schema-keywords.js';

/**
 * A tool argument the client mirrors into the `Mcp-Param-{header}` HTTP header.
 */
export interface McpHeaderParam {
  /** The top-level argument (DTO property) name. */
  readonly property: string;
  /** The header name suffix, as declared: the header is `Mcp-Param-${header}`. */
  readonly header: string;
}

interface CompiledSchema {
  readonly schema: JsonSchema;
  readonly headers: readonly McpHeaderParam[];
}

// The spec admits these; several clients drop a whole tool whose header sits on a `number`.
const HEADER_TYPES: ReadonlySet<JsonType | undefined> = new Set<JsonType | undefined>(['string', 'integer', 'boolean']);

const compiled = new WeakMap<Function, CompiledSchema>();

/**
 * The JSON Schema 2020-12 object schema (an MCP `inputSchema`) of a class-validator DTO.
 *
 * Read from class-validator's metadata, `design:type`, class-transformer's `@Type()` and
 * `@McpProperty()`, once per class; the result is cached and deep-frozen, so spread it to extend
 * it. No `$schema` is emitted (2020-12 is MCP's default dialect) and no `additionalProperties`
 * (unknown arguments are stripped, not rejected). Nested DTOs (`@ValidateNested()` +
 * `@Type(() => X)`) are inlined, since not every client resolves `$ref`; a class that contains
 * itself is cut at the repeat with a bare `{ type: 'object' }`. Rules JSON Schema cannot express
 * (custom validators, `@ValidateIf`, ...) are left to the validator.
 *
 * A property is `required` unless it has `@IsOptional()` / `@ValidateIf()` or a field
 * initializer (whose value becomes `default`).
 *
 * @throws DtoDefinitionError for a `@ValidateNested()` without `@Type()`, or an `x-mcp-header`
 *   on a property that is not a `string`, `integer` or `boolean`, or a header name used twice.
 */
export function dtoToJsonSchema(dto: Function): JsonSchema {
  return compile(dto).schema;
}

/**
 * The top-level arguments of `dto` declared with `@McpProperty({ header })`, in property order,
 * for the transport to check `Mcp-Param-*` headers against the body. Cached with the schema.
 */
export function mcpHeaderParams(dto: Function): readonly McpHeaderParam[] {
  return compile(dto).headers;
}

function compile(dto: Function): CompiledSchema {
  let result = compiled.get(dto);
  if (!result) {
    const headers: McpHeaderParam[] = [];
    const schema = objectSchema(dto, [], headers);
    result = deepFreeze({ schema, headers });
    compiled.set(dto, result);
  }
  return result;
}

/** `headers` collects the top level's header declarations; nested levels pass `undefined`. */
function objectSchema(
  dto: Function,
  enclosing: readonly Function[],
  headers: McpHeaderParam[] | undefined,
): JsonSchema {
  if (enclosing.includes(dto)) return { type: 'object' };
  const path = [...enclosing, dto];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const property of dtoModel(dto).properties) {
    const schema = propertySchema(property, path);
    if (headers) declareHeader(dto, property, schema, headers);
    properties[property.name] = schema;
    if (!property.optional) required.push(property.name);
  }
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

function propertySchema(property: DtoPropertyModel, path: readonly Function[]): JsonSchema {
  const nested = property.nestedType ? objectSchema(property.nestedType, path, undefined) : undefined;
  const valueDraft = draftFromRules(property.rules, property.designType);
  let body: JsonSchema;
  if (valueDraft.type === 'array') {
    // `{ each: true }` rules and a nested @Type() describe the elements.
    const items = property.eachRules.length > 0 ? renderDraft(draftFromRules(property.eachRules)) : {};
    const itemSchema = nested ? mergeInto(nested, items) : items;
    body = renderDraft(valueDraft);
    if (Object.keys(itemSchema).length > 0) body.items = itemSchema;
  } else {
    // On a non-array value class-validator applies `each` rules to the value itself.
    const draft =
      property.eachRules.length > 0
        ? draftFromRules([...property.rules, ...property.eachRules], property.designType)
        : valueDraft;
    body = nested ? mergeInto(nested, withoutType(renderDraft(draft))) : renderDraft(draft);
  }
  return annotate(body, property);
}

/** `@McpProperty()` annotations around the validation keywords: title and description first. */
function annotate(body: JsonSchema, property: DtoPropertyModel): JsonSchema {
  const mcp = property.mcp;
  const schema: JsonSchema = {};
  if (mcp?.title !== undefined) schema.title = mcp.title;
  if (mcp?.description !== undefined) schema.description = mcp.description;
  Object.assign(schema, body);
  // Copies: the cached schema is frozen, and these values belong to the decorator's caller.
  const defaultValue = mcp && 'default' in mcp ? mcp.default : property.initialValue;
  if (defaultValue !== undefined) schema.default = structuredClone(defaultValue);
  if (mcp?.examples !== undefined) schema.examples = structuredClone(mcp.examples);
  return schema;
}

function declareHeader(dto: Function, property: DtoPropertyModel, schema: JsonSchema, headers: McpHeaderParam[]): void {
  const header = property.mcp?.header;
  if (header === undefined) return;
  const type = schema.type as JsonType | undefined;
  if (!HEADER_TYPES.has(type)) {
    throw new DtoDefinitionError(
      dto,
      property.name,
      `x-mcp-header "${header}" needs a string, integer or boolean property, but its schema type is ` +
        `${type ?? 'undetermined'}. Add @IsString(), @IsInt() or @IsBoolean() (a number is not allowed: ` +
        `clients reject such tools).`,
    );
  }
  const clash = headers.find((h) => h.header.toLowerCase() === header.toLowerCase());
  if (clash) {
    throw new DtoDefinitionError(
      dto,
      property.name,
      `x-mcp-header "${header}" is already used by ${clash.property} (header names are case-insensitive).`,
    );
  }
  schema['x-mcp-header'] = header;
  headers.push({ property: property.name, header });
}

/** `extra` keywords layered over an (object) schema; `extra` wins on a clash. */
function mergeInto(base: JsonSchema, extra: JsonSchema): JsonSchema {
  return { ...base, ...extra };
}

function withoutType(schema: JsonSchema): JsonSchema {
  const { type: _type, ...rest } = schema;
  return rest;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
