import { Expose, plainToInstance, Transform } from 'class-transformer';
import {
  getMetadataStorage,
  IsBoolean,
  IsEmail,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Validate,
  ValidateBy,
  ValidateIf,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  validateSync,
} from 'class-validator';
import { compileDtoValidator } from './dto-validator.js';
import { compileFlatDtoCheck } from './flat-dto-check.js';
import { McpProperty } from './mcp-property.decorator.js';

class Sum {
  @IsNumber() a!: number;
  @IsNumber() b!: number;
}

class Mixed {
  @IsInt() count!: number;
  @IsString() @McpProperty({ description: 'a label' }) label!: string;
  @IsOptional() @IsBoolean() loud?: boolean;
  @IsOptional() @IsNumber() @IsInt() ratio?: number;
  @ValidateIf((o: Mixed) => o.count === 1) @IsString() onlyForOne?: string;
  unit = 'metric';
  @IsOptional() @IsString() tag = 'none';
}

class Base {
  @IsString() id!: string;
}
class Derived extends Base {
  @IsInt() n!: number;
}

const rulesOf = (dto: Function) =>
  getMetadataStorage().getTargetValidationMetadatas(dto, undefined as unknown as string, false, false);

/** What the class-transformer + class-validator path reports for a flat DTO (the reference). */
function reference(dto: new () => object, raw: Record<string, unknown>): { value: object; violations: string[] } {
  const instance = plainToInstance(dto, raw, { enableImplicitConversion: false }) as Record<string, unknown>;
  const errors = validateSync(instance, {
    whitelist: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  const violations = errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`));
  return { value: instance, violations };
}

const VALUES: readonly unknown[] = [0, 2, 1.5, -3, 'x', '', '2', true, false, null, {}, [], [1], { a: 1 }];

describe('compileFlatDtoCheck', () => {
  it.each([Sum, Mixed, Derived])('compiles the flat DTO %p', (dto) => {
    expect(compileFlatDtoCheck(dto, rulesOf(dto))).toBeDefined();
  });

  it.each([
    ['number with options', IsNumber({ allowNaN: true })],
    ['custom message', IsString({ message: 'nope' })],
    ['each', IsString({ each: true })],
    ['groups', IsString({ groups: ['x'] })],
    ['a decorator it does not reproduce', IsEmail()],
    ['a custom validator named like a built-in', ValidateBy({ name: 'isString', validator: { validate: () => true } })],
  ])('falls back to class-validator for %s', (_label, decorator) => {
    class Dto {
      @IsOptional() value?: unknown;
    }
    decorator(Dto.prototype, 'value');
    expect(compileFlatDtoCheck(Dto, rulesOf(Dto))).toBeUndefined();
  });

  it('falls back for a constraint class named like a built-in that cannot be made without arguments', () => {
    // What a custom constraint with injected dependencies looks like to class-validator.
    @ValidatorConstraint({ name: 'isString' })
    class NeedsService implements ValidatorConstraintInterface {
      constructor(private readonly service: { accepts(value: unknown): boolean }) {
        if (!service) throw new Error('NeedsService is made by a DI container');
      }
      validate(value: unknown): boolean {
        return this.service.accepts(value);
      }
    }
    class Dto {
      @Validate(NeedsService) value!: unknown;
    }
    expect(compileFlatDtoCheck(Dto, rulesOf(Dto))).toBeUndefined();
  });

  it('honours class-transformer decorators that rename or transform a property (class-transformer builds the instance)', () => {
    class Renamed {
      @Expose({ name: 'x' }) @IsInt() n!: number;
    }
    class Transformed {
      @Transform(({ value }) => Number(value)) @IsInt() n!: number;
    }
    for (const [dto, raw] of [
      [Renamed, { x: 5 }],
      [Renamed, { n: 5 }],
      [Transformed, { n: '7' }],
      [Transformed, { n: 'seven' }],
    ] as const) {
      const expected = reference(dto, raw);
      const result = compileDtoValidator(dto)(raw);
      expect(result.ok ? [] : result.violations.slice(0, expected.violations.length)).toEqual(expected.violations);
      if (result.ok) expect(result.value).toEqual(expected.value);
    }
  });

  it('falls back when a property has only a condition (any value would pass and be copied deeply)', () => {
    class OnlyOptional {
      @IsOptional() anything?: unknown;
    }
    expect(compileFlatDtoCheck(OnlyOptional, rulesOf(OnlyOptional))).toBeUndefined();
  });
});

describe('the compiled validator of flat DTOs gives what class-transformer + class-validator give', () => {
  const cases: [new () => object, Record<string, unknown>][] = [];
  for (const a of VALUES) for (const b of VALUES) cases.push([Sum, { a, b }]);
  for (const v of VALUES) {
    cases.push([Sum, { a: v }], [Sum, { b: v, extra: v }]);
    cases.push([Mixed, { count: 1, label: v, loud: v }], [Mixed, { count: v, label: 'l', ratio: v }]);
    cases.push([Mixed, { count: 1, label: 'l', onlyForOne: v }], [Mixed, { count: 2, label: 'l', onlyForOne: v }]);
    cases.push([Mixed, { count: 3, label: 'l', tag: v, unit: v }], [Derived, { id: v, n: v }]);
  }
  cases.push([Sum, {}], [Mixed, {}], [Derived, {}], [Sum, { __proto__: { a: 1 }, b: 2 }]);

  it.each(cases)('%p %j', (dto, raw) => {
    const expected = reference(dto, raw);
    const result = compileDtoValidator(dto)(raw);
    if (result.ok) {
      expect(expected.violations).toEqual([]);
      expect(result.value).toBeInstanceOf(dto);
      expect(result.value).toEqual(expected.value);
      expect(Object.keys(result.value)).toEqual(Object.keys(expected.value));
    } else {
      // class-validator's lines, in its order, then "x is required" for absent required properties.
      expect(result.violations.slice(0, expected.violations.length)).toEqual(expected.violations);
      for (const extra of result.violations.slice(expected.violations.length)) {
        expect(extra).toMatch(/^(\w+): \1 is required$/);
      }
    }
  });

  it('reports the texts the specs rely on', () => {
    expect(compileDtoValidator(Sum)({ a: '1' })).toEqual({
      ok: false,
      violations: [
        'a: a must be a number conforming to the specified constraints',
        'b: b must be a number conforming to the specified constraints',
      ],
    });
    expect(compileDtoValidator(Mixed)({ count: 1.5, label: 2 })).toEqual({
      ok: false,
      violations: ['count: count must be an integer number', 'label: label must be a string'],
    });
  });
});
