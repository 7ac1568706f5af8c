import { plainToInstance, type ClassTransformOptions } from 'class-transformer';
import { validateSync, type ValidationError, type ValidatorOptions } from 'class-validator';
import { DtoDefinitionError } from './dto-definition.error.js';
import { dtoModel } from './dto-metadata.js';
import { compileFlatDtoCheck } from './flat-dto-check.js';

/**
 * The outcome of validating raw arguments against a DTO: the DTO instance, or one readable line
 * per failed rule, prefixed with the property path (`guest.email: email must be an email`,
 * `guests[1].name: ...`).
 */
export type DtoValidationResult = { ok: true; value: object } | { ok: false; violations: string[] };

/**
 * Validates raw arguments against one DTO class. Synchronous by design.
 */
export type DtoValidatorFn = (raw: unknown) => DtoValidationResult;

const TRANSFORM_OPTIONS: ClassTransformOptions = Object.freeze({ enableImplicitConversion: false });
const VALIDATOR_OPTIONS: ValidatorOptions = Object.freeze({
  whitelist: true,
  forbidNonWhitelisted: false,
  forbidUnknownValues: true,
  // Keep the errors small: no references to the instance or the (client-supplied) values.
  validationError: Object.freeze({ target: false, value: false }),
});

const validators = new WeakMap<Function, DtoValidatorFn>();

/**
 * The validator for `dto`, checked and built once and cached: call it at startup so a broken DTO
 * stops the application there, then keep the function for the hot path.
 *
 * Each call turns `raw` into a `dto` instance with class-transformer (no implicit conversion:
 * `"4"` is not a number, as JSON arguments are already typed), then runs class-validator's
 * `validateSync` with `whitelist` (unknown keys are stripped, not rejected). `undefined` counts as
 * `{}`, since MCP clients may omit `arguments`; any other non-object (array, string, `null`) is a
 * single violation.
 *
 * Absent properties are held to the `required` list of `dtoToJsonSchema`, which is a little
 * stricter than class-validator alone: a nested DTO without `@IsOptional()`, or a property with
 * only `@McpProperty()`, must be present (`host: host is required`).
 *
 * A flat DTO (only `@IsOptional()`, `@ValidateIf()`, `@IsNumber()`, `@IsInt()`, `@IsString()`,
 * `@IsBoolean()`, see `compileFlatDtoCheck`) gets a check compiled at startup that builds the same
 * instance and reports the same lines without running class-validator per call (a kept speed-up:
 * bench/RESULTS.md, "Issue 24"), and builds the instance by copying its properties when that
 * provably builds what class-transformer would (`compileFlatDtoInstance`, bench/RESULTS.md,
 * "Issue 39"); any other DTO is built by class-transformer and validated by class-validator.
 *
 * Asynchronous validators are not supported: `validateSync` silently skips them, which would let
 * invalid input through, so a DTO (or nested DTO) that has one is refused here instead.
 *
 * @throws DtoDefinitionError for an async validator, a `@ValidateNested()` without `@Type()`, or a
 *   nested class without any validated property.
 */
export function compileDtoValidator(dto: Function): DtoValidatorFn {
  let validator = validators.get(dto);
  if (!validator) {
    validator = buildValidator(dto);
    validators.set(dto, validator);
  }
  return validator;
}

function buildValidator(dto: Function): DtoValidatorFn {
  assertSyncAndComplete(dto);
  const cls = dto as new () => object;
  // class-validator reports an "unknown value" for a class without rules; a DTO with nothing to
  // validate simply accepts (and, like whitelist would, drops) whatever was sent.
  const model = dtoModel(dto);
  if (model.properties.length === 0) {
    return (raw) => checkShape(raw) ?? { ok: true, value: new cls() };
  }
  const flat = compileFlatDtoCheck(dto, model.rules);
  if (flat) {
    // A flat DTO nests nothing: its required properties are all there is to add.
    const required = model.properties.filter((property) => !property.optional).map((property) => property.name);
    return (raw) => {
      const notAnObject = checkShape(raw);
      if (notAnObject) return notAnObject;
      const instance = flat.instance(raw ?? {});
      const found = flat.violations(instance);
      addMissingOf(instance, required, '', found);
      return found.length === 0 ? { ok: true, value: instance } : { ok: false, violations: found };
    };
  }
  return (raw) => {
    const notAnObject = checkShape(raw);
    if (notAnObject) return notAnObject;
    const instance = plainToInstance(cls, raw ?? {}, TRANSFORM_OPTIONS) as object;
    const found = violations(validateSync(instance, VALIDATOR_OPTIONS));
    addMissing(instance, dto, '', found);
    return found.length === 0 ? { ok: true, value: instance } : { ok: false, violations: found };
  };
}

function checkShape(raw: unknown): DtoValidationResult | undefined {
  if (raw === undefined) return undefined;
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return undefined;
  const got = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`;
  return { ok: false, violations: [`arguments must be an object, got ${got}`] };
}

/** Walks the DTO and every nested DTO once, so a defect deep in the tree surfaces at startup. */
function assertSyncAndComplete(root: Function): void {
  const seen = new Set<Function>();
  const pending: Function[] = [root];
  for (let cls = pending.pop(); cls !== undefined; cls = pending.pop()) {
    if (seen.has(cls)) continue;
    seen.add(cls);
    const model = dtoModel(cls);
    if (model.asyncProperty !== undefined) {
      throw new DtoDefinitionError(
        cls,
        model.asyncProperty,
        'has an asynchronous validator; MCP argument validation is synchronous and would skip it. ' +
          'Make the constraint synchronous, or check this in the handler.',
      );
    }
    if (cls !== root && model.properties.length === 0) {
      throw new DtoDefinitionError(
        cls,
        undefined,
        'is used as a nested DTO but has no class-validator decorators, so class-validator rejects every value. ' +
          'Decorate its properties (or use @IsObject() instead of @ValidateNested()).',
      );
    }
    for (const property of model.properties) {
      if (property.nestedType) pending.push(property.nestedType);
    }
  }
}

/**
 * Adds "x is required" for each required property absent from `value`, unless already reported:
 * class-validator skips `@ValidateNested()` on an absent value, and `@McpProperty()` alone checks
 * nothing. Required means what the schema lists as `required` (see dtoModel); nested DTO
 * instances are visited the same way.
 */
function addMissing(value: object, dto: Function, path: string, out: string[]): void {
  const record = value as Record<string, unknown>;
  const properties = dtoModel(dto).properties;
  addMissingOf(
    value,
    properties.filter((property) => !property.optional).map((property) => property.name),
    path,
    out,
  );
  for (const { name, nestedType: type } of properties) {
    if (type === undefined) continue;
    const nested = record[name];
    const at = childPath(path, name);
    if (Array.isArray(nested)) {
      nested.forEach((item, index) => {
        if (item instanceof type) addMissing(item, type, `${at}[${index}]`, out);
      });
    } else if (nested instanceof type) {
      addMissing(nested, type, at, out);
    }
  }
}

/** Adds "x is required" for each of `required` absent from `value`, unless already reported. */
function addMissingOf(value: object, required: readonly string[], path: string, out: string[]): void {
  const record = value as Record<string, unknown>;
  for (const name of required) {
    if (record[name] !== undefined) continue;
    const at = childPath(path, name);
    if (!out.some((line) => line.startsWith(`${at}: `))) out.push(`${at}: ${name} is required`);
  }
}

function violations(errors: readonly ValidationError[]): string[] {
  const out: string[] = [];
  collect(errors, '', out);
  return out;
}

function collect(errors: readonly ValidationError[], parent: string, out: string[]): void {
  for (const error of errors) {
    const path = childPath(parent, error.property);
    if (error.constraints) {
      for (const message of Object.values(error.constraints)) out.push(path ? `${path}: ${message}` : message);
    }
    if (error.children && error.children.length > 0) collect(error.children, path, out);
  }
}

const INDEX = /^\d+$/;

function childPath(parent: string, property: string | undefined): string {
  if (property === undefined || property === '') return parent;
  if (INDEX.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}
