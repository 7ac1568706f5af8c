import 'reflect-metadata';
import { getMetadataStorage, ValidationTypes, type MetadataStorage } from 'class-validator';
import { DtoDefinitionError } from './dto-definition.error.js';
import { declaredNestedType } from './dto-nested-type.js';
import { getMcpPropertyOptions, type McpPropertyOptions } from './mcp-property.decorator.js';

/** class-validator does not export its metadata class from the package root. */
export type ValidationRule = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/**
 * One property of a DTO as class-validator will see it, read once per class. Every schema,
 * prompt-argument and validation decision is made from this model, so they cannot disagree.
 * @internal
 */
export interface DtoPropertyModel {
  readonly name: string;
  /**
   * Absent is acceptable: `@IsOptional()` / `@ValidateIf()` skip the property, or a field
   * initializer supplies the value (class-transformer keeps it when the key is missing).
   */
  readonly optional: boolean;
  /** Rules on the value itself. */
  readonly rules: readonly ValidationRule[];
  /** Rules declared with `{ each: true }`: class-validator applies them to each array element. */
  readonly eachRules: readonly ValidationRule[];
  /** `design:type` as emitted by the compiler, when a decorator caused it to be emitted. */
  readonly designType: Function | undefined;
  /** The `@Type()` class of a `@ValidateNested()` property. */
  readonly nestedType: Function | undefined;
  readonly mcp: McpPropertyOptions | undefined;
  /** The field initializer's value, when it is plain JSON (usable as a schema `default`). */
  readonly initialValue: unknown;
}

/** @internal */
export interface DtoModel {
  readonly dto: Function;
  /**
   * Every class-validator rule of the class, inherited ones included, in class-validator's order:
   * exactly what `validateSync()` applies without groups. Read once per class, since each read
   * walks every validated class of the process.
   */
  readonly rules: readonly ValidationRule[];
  readonly properties: readonly DtoPropertyModel[];
  /** A property of this class (not of nested ones) with an asynchronous validator, if any. */
  readonly asyncProperty: string | undefined;
}

const models = new WeakMap<Function, DtoModel>();

/**
 * The cached property model of `dto`.
 * @throws DtoDefinitionError for a `@ValidateNested()` without a resolvable `@Type()`.
 * @internal
 */
export function dtoModel(dto: Function): DtoModel {
  let model = models.get(dto);
  if (!model) {
    model = buildModel(dto);
    models.set(dto, model);
  }
  return model;
}

function buildModel(dto: Function): DtoModel {
  if (typeof dto !== 'function' || !dto.prototype) {
    throw new TypeError(`A DTO must be a class, got ${String(dto)}`);
  }
  const storage = getMetadataStorage();
  // Exactly the rules validateSync() applies without groups: the executor passes an undefined
  // schema name, always = false and strictGroups = false.
  const rules = storage.getTargetValidationMetadatas(dto, undefined as unknown as string, false, false);
  const initial = initialValues(dto);
  const properties: DtoPropertyModel[] = [];
  let asyncProperty: string | undefined;

  for (const [name, own] of groupInDeclarationOrder(dto, rules)) {
    const valueRules = own.filter((rule) => !rule.each);
    const eachRules = own.filter((rule) => rule.each);
    const nested = own.some((rule) => rule.type === ValidationTypes.NESTED_VALIDATION);
    const nestedType = nested ? declaredNestedType(dto, name) : undefined;
    if (nested && !nestedType) {
      throw new DtoDefinitionError(
        dto,
        name,
        'has @ValidateNested() but no @Type(() => SomeClass) returning a class; without it the nested value ' +
          'stays a plain object and every call fails validation. Add @Type(() => SomeClass) from class-transformer.',
      );
    }
    if (asyncProperty === undefined && own.some((rule) => isAsync(storage, rule))) asyncProperty = name;
    const designType: unknown = Reflect.getMetadata('design:type', dto.prototype as object, name);
    properties.push({
      name,
      optional: own.some((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION) || initial.has(name),
      rules: valueRules,
      eachRules,
      designType: typeof designType === 'function' ? designType : undefined,
      nestedType,
      mcp: getMcpPropertyOptions(dto, name),
      initialValue: jsonOrUndefined(initial.get(name)),
    });
  }
  return Object.freeze({ dto, rules: Object.freeze(rules), properties: Object.freeze(properties), asyncProperty });
}

/** Base-class properties first, then each subclass's, each in declaration order. */
function groupInDeclarationOrder(dto: Function, rules: ValidationRule[]): Map<string, ValidationRule[]> {
  const chain: Function[] = [];
  for (
    let cls: unknown = dto;
    typeof cls === 'function' && cls !== Function.prototype;
    cls = Object.getPrototypeOf(cls)
  ) {
    chain.unshift(cls);
  }
  const grouped = new Map<string, ValidationRule[]>();
  for (const cls of chain) {
    for (const rule of rules) {
      if (rule.target !== cls) continue;
      const list = grouped.get(rule.propertyName);
      if (list) list.push(rule);
      else grouped.set(rule.propertyName, [rule]);
    }
  }
  return grouped;
}

function isAsync(storage: MetadataStorage, rule: ValidationRule): boolean {
  if (rule.type === ValidationTypes.PROMISE_VALIDATION) return true;
  return (
    rule.constraintCls !== undefined && storage.getTargetValidatorConstraints(rule.constraintCls).some((c) => c.async)
  );
}

/**
 * Field initializers, found by constructing one instance at startup (plainToInstance does the same
 * on every call). A class whose constructor needs arguments simply has none.
 */
function initialValues(dto: Function): Map<string, unknown> {
  const values = new Map<string, unknown>();
  let instance: object;
  try {
    instance = new (dto as new () => object)();
  } catch {
    return values;
  }
  for (const [key, value] of Object.entries(instance)) {
    if (value !== undefined) values.set(key, value);
  }
  return values;
}

function jsonOrUndefined(value: unknown): unknown {
  return isPlainJson(value, 0) ? value : undefined;
}

function isPlainJson(value: unknown, depth: number): boolean {
  if (depth > 16) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isPlainJson(item, depth + 1));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).every((item) => isPlainJson(item, depth + 1));
  }
  return false;
}
