import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationRule } from './dto-metadata.js';
import { compileFlatDtoInstance } from './flat-dto-instance.js';

/**
 * What building and validating one flat DTO instance with class-transformer and class-validator
 * amounts to, decided once per class: neither runs class-validator on the hot path, and
 * class-transformer only where copying would not build the same instance (`compileFlatDtoInstance`).
 * @internal
 */
export interface FlatDtoCheck {
  /**
   * The instance of the arguments `raw`, as `plainToInstance` builds it, stripped of what
   * `validateSync({ whitelist })` would strip: every key without a rule.
   */
  instance(raw: object): object;
  /** class-validator's violation lines for `instance` (`a: a must be a number ...`), in its order. */
  violations(instance: object): string[];
}

/** One built-in type check of class-validator: the predicate it applies and its default message. */
interface TypeCheck {
  readonly test: (value: unknown) => boolean;
  readonly message: string;
}

// The built-in decorators a flat DTO may use, with the predicates class-validator 0.14/0.15 applies
// (IsNumber only with its default options). Each is also checked against the decorator's own
// validator at startup (PROBES below), so a custom decorator that reuses one of these names, or a
// class-validator release that changes one, falls back to class-validator itself.
const TYPE_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
  isNumber: (value) => typeof value === 'number' && Number.isFinite(value),
  isInt: (value) => typeof value === 'number' && Number.isInteger(value),
  isString: (value) => typeof value === 'string' || value instanceof String,
  isBoolean: (value) => typeof value === 'boolean' || value instanceof Boolean,
};

const PROBES: readonly unknown[] = [
  0,
  1,
  -7,
  1.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  '',
  '1',
  'true',
  true,
  false,
  null,
  undefined,
  {},
  [],
  [1],
  new String('x'),
  new Boolean(false),
  new Number(1),
];

interface PropertyCheck {
  readonly name: string;
  /** The `@IsOptional()` / `@ValidateIf()` conditions: all must hold for the checks to run. */
  readonly conditions: readonly ((object: object, value: unknown) => boolean)[];
  readonly checks: readonly TypeCheck[];
}

/**
 * The compiled check for `dto` when it is flat and uses only what the check reproduces exactly,
 * else `undefined` (validate with class-transformer + class-validator as before).
 *
 * Flat means: every class-validator rule is `@IsOptional()`/`@ValidateIf()`, `@Allow()` (which
 * `@McpProperty()` adds) or one of `@IsNumber()`
 * (default options), `@IsInt()`, `@IsString()`, `@IsBoolean()`, without `each`, groups, `always`,
 * a custom message or context, each property has at least one of those type checks, and no
 * accessor shadows a property. class-transformer's decorators need no check: the instance checked
 * is the one `plainToInstance` makes (or a copy proven the same at startup).
 * @internal
 */
export function compileFlatDtoCheck(dto: Function, rules: readonly ValidationRule[]): FlatDtoCheck | undefined {
  if (rules.length === 0) return undefined;
  // class-validator's own grouping, so the properties come in exactly its order.
  const grouped = getMetadataStorage().groupByPropertyName(rules as ValidationRule[]);
  const properties: PropertyCheck[] = [];
  for (const name of Object.keys(grouped)) {
    const property = compileProperty(dto, name, grouped[name] ?? []);
    if (!property) return undefined;
    properties.push(property);
  }
  const names = new Set(properties.map((p) => p.name));
  return {
    instance: compileFlatDtoInstance(dto, names),
    violations(instance) {
      const out: string[] = [];
      const record = instance as Record<string, unknown>;
      for (const property of properties) {
        const value = record[property.name];
        if (!property.conditions.every((condition) => condition(instance, value))) continue;
        for (const check of property.checks) {
          if (!check.test(value)) out.push(`${property.name}: ${check.message}`);
        }
      }
      return out;
    },
  };
}

function compileProperty(dto: Function, name: string, rules: readonly ValidationRule[]): PropertyCheck | undefined {
  if (name in (dto.prototype as object)) return undefined;
  const storage = getMetadataStorage();
  const conditions: ((object: object, value: unknown) => boolean)[] = [];
  const checks: TypeCheck[] = [];
  const seen = new Set<string>();
  for (const rule of rules) {
    if (!plainRule(rule)) return undefined;
    // `@Allow()` (also set by `@McpProperty()`) only keeps the property through the whitelist.
    if (rule.type === ValidationTypes.WHITELIST) continue;
    if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      const condition: unknown = rule.constraints?.[0];
      if (typeof condition !== 'function') return undefined;
      conditions.push(condition as (object: object, value: unknown) => boolean);
      continue;
    }
    if (rule.type !== ValidationTypes.CUSTOM_VALIDATION || rule.constraintCls === undefined) return undefined;
    const constraints = storage.getTargetValidatorConstraints(rule.constraintCls);
    const constraint = constraints[0];
    if (constraints.length !== 1 || !constraint || constraint.async) return undefined;
    const test = TYPE_CHECKS[constraint.name];
    // Two failures of one constraint name share one entry in class-validator's report.
    if (!test || seen.has(constraint.name) || !defaultOptions(constraint.name, rule)) return undefined;
    seen.add(constraint.name);
    const validator = constraintInstance(constraint.target);
    if (!validator) return undefined;
    const args = { targetName: dto.name, property: name, object: {}, value: undefined, constraints: rule.constraints };
    if (PROBES.some((probe) => validator.validate(probe, { ...args, value: probe }) !== test(probe))) return undefined;
    const template = typeof validator.defaultMessage === 'function' ? validator.defaultMessage(args) : '';
    const message = template.replace(/\$property/g, name);
    if (message.includes('$')) return undefined;
    checks.push({ test, message });
  }
  return checks.length > 0 ? { name, conditions, checks } : undefined;
}

/** What the probes and the message need of a constraint class's instance. */
interface ConstraintInstance {
  validate(value: unknown, args: object): unknown;
  defaultMessage?(args: object): string;
}

/**
 * An instance of a built-in constraint class, made here rather than read from class-validator's
 * container (`ConstraintMetadata.instance`): its default container finds an instance by a linear
 * search over every constraint class made so far, and each decorator use makes one, so reading it
 * for every property of every DTO made startup quadratic in the number of decorated properties
 * (bench/STARTUP.md). The built-ins' classes hold no state and take no arguments; a class that
 * cannot be made so is not one the flat check reproduces.
 */
function constraintInstance(target: Function): ConstraintInstance | undefined {
  try {
    const instance: unknown = new (target as new () => unknown)();
    return typeof (instance as Partial<ConstraintInstance> | null)?.validate === 'function'
      ? (instance as ConstraintInstance)
      : undefined;
  } catch {
    return undefined;
  }
}

function plainRule(rule: ValidationRule): boolean {
  return (
    !rule.each &&
    !rule.always &&
    (rule.groups === undefined || rule.groups.length === 0) &&
    rule.message === undefined &&
    rule.context === undefined &&
    (rule as { validateIf?: unknown }).validateIf === undefined
  );
}

/** `@IsNumber()` reads its options (NaN, infinities, decimal places); the predicate assumes none. */
function defaultOptions(name: string, rule: ValidationRule): boolean {
  if (name !== 'isNumber') return true;
  const options: unknown = rule.constraints?.[0];
  return (
    options === undefined || (typeof options === 'object' && options !== null && Object.keys(options).length === 0)
  );
}
