/**
 * A DTO class that cannot serve as MCP arguments: a `@ValidateNested()` without `@Type()`, an
 * asynchronous validator, a bad `x-mcp-header` declaration. Thrown while the module builds its
 * schemas at startup, never while serving a request, so the message names the class and property
 * and says what to change.
 */
export class DtoDefinitionError extends Error {
  constructor(
    /** The class at fault. */
    readonly dto: Function,
    /** The property at fault, when there is one. */
    readonly property: string | undefined,
    problem: string,
  ) {
    super(`${dto.name || 'anonymous class'}${property === undefined ? '' : `.${property}`}: ${problem}`);
    this.name = 'DtoDefinitionError';
  }
}
