import 'reflect-metadata';
import { Allow } from 'class-validator';

/**
 * What `@McpProperty()` adds to a DTO property's JSON Schema (and, for prompt DTOs, to its
 * prompt argument).
 *
 * @publicApi
 */
export interface McpPropertyOptions {
  /** Shown to the model and the user; the single most useful thing to write. */
  description?: string;
  /** A short human-readable label. */
  title?: string;
  /** Sample values, emitted as the JSON Schema `examples` array. */
  examples?: unknown[];
  /**
   * Emitted as the JSON Schema `default` annotation. It is documentation only: a client may omit
   * the argument, so give the field the same value as an initializer (`unit = 'metric'`) to have
   * it applied; an initializer alone already makes the property optional and sets `default`.
   */
  default?: unknown;
  /**
   * Mirror this argument into the `Mcp-Param-{header}` HTTP header (emitted as the
   * `x-mcp-header` schema extension), so gateways can route on it without parsing the body.
   * Only on top-level `string`, `integer` or `boolean` properties; the name must be an
   * RFC 9110 token and unique (case-insensitively) within the DTO. A nested DTO's header
   * declarations are not emitted: the transport only mirrors top-level arguments.
   */
  header?: string;
}

const MCP_PROPERTY_METADATA = Symbol.for('mocapi:mcp-property');

// RFC 9110 §5.6.2 token: what a header field-name may contain.
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Describes a DTO property for MCP clients: its description, title, examples, default, and
 * optionally the `Mcp-Param-*` header that mirrors it.
 *
 * The property is also registered with class-validator's whitelist (as `@Allow()` does), so a
 * property carrying only `@McpProperty()` is kept rather than stripped; add class-validator
 * decorators to have its value checked.
 *
 * @example
 * ```ts
 * class BookTableArgs {
 *   @McpProperty({ description: 'Number of guests', examples: [2, 4] })
 *   @IsInt() @Min(1) @Max(12)
 *   partySize!: number;
 *
 *   @McpProperty({ description: 'Data-centre region', header: 'Region' })
 *   @IsIn(['eu', 'us'])
 *   region!: string;
 * }
 * ```
 * @throws TypeError when `header` is not a valid HTTP header token (at class definition).
 * @publicApi
 */
export function McpProperty(options: McpPropertyOptions = {}): PropertyDecorator {
  if (options.header !== undefined && !HTTP_TOKEN.test(options.header)) {
    throw new TypeError(
      `@McpProperty header ${JSON.stringify(options.header)} is not a valid HTTP header name token ` +
        `(RFC 9110: letters, digits and !#$%&'*+-.^_\`|~ only); it becomes Mcp-Param-<header>.`,
    );
  }
  const stored: McpPropertyOptions = Object.freeze({
    ...options,
    ...(options.examples === undefined ? {} : { examples: [...options.examples] }),
  });
  const allow = Allow();
  return (target: object, propertyKey: string | symbol): void => {
    if (typeof propertyKey !== 'string') {
      throw new TypeError('@McpProperty can only decorate string-named properties');
    }
    Reflect.defineMetadata(MCP_PROPERTY_METADATA, stored, target, propertyKey);
    allow(target, propertyKey);
  };
}

/**
 * The `@McpProperty()` options of `dto`'s `property`, own or inherited, if any.
 * @internal
 */
export function getMcpPropertyOptions(dto: Function, property: string): McpPropertyOptions | undefined {
  return Reflect.getMetadata(MCP_PROPERTY_METADATA, dto.prototype as object, property) as
    McpPropertyOptions | undefined;
}
