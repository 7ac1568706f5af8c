import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateBy,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { DtoDefinitionError } from './dto-definition.error.js';
import { compileDtoValidator, type DtoValidationResult } from './dto-validator.js';
import { McpProperty } from './mcp-property.decorator.js';

enum Seating {
  Indoor = 'indoor',
  Terrace = 'terrace',
}

class Guest {
  @IsString() name!: string;
  @IsOptional() @IsEmail() email?: string;
}

class Booking {
  @IsInt() @Min(1) @Max(12) partySize!: number;
  @IsString() @MaxLength(5) code!: string;
  @IsEnum(Seating) seating!: Seating;
  @IsIn(['metric', 'imperial']) unit = 'metric';
  @ValidateNested() @Type(() => Guest) guest!: Guest;
  @IsOptional() @IsArray() @ArrayMaxSize(2) @ValidateNested({ each: true }) @Type(() => Guest) guests?: Guest[];
  @IsOptional() @IsString() note?: string;
}

const valid = { partySize: 4, code: 'AB1', seating: 'terrace', guest: { name: 'Ada', email: 'ada@example.com' } };

function violationsOf(result: DtoValidationResult): string[] {
  if (result.ok) throw new Error('expected violations, got a valid result');
  return result.violations;
}

describe('compileDtoValidator, one call', () => {
  it('returns an instance of the DTO, nested DTOs instantiated, initializer defaults applied', () => {
    const result = compileDtoValidator(Booking)({ ...valid, guests: [{ name: 'Bo' }] });
    expect(result.ok).toBe(true);
    const value = (result as { value: Booking }).value;
    expect(value).toBeInstanceOf(Booking);
    expect(value.guest).toBeInstanceOf(Guest);
    expect(value.guests?.[0]).toBeInstanceOf(Guest);
    expect(value).toMatchObject({ partySize: 4, unit: 'metric', guest: { name: 'Ada' }, guests: [{ name: 'Bo' }] });
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a number above @Max', { partySize: 13 }, ['partySize: partySize must not be greater than 12']],
    ['a number below @Min', { partySize: 0 }, ['partySize: partySize must not be less than 1']],
    ['a non-integer', { partySize: 2.5 }, ['partySize: partySize must be an integer number']],
    [
      'a string where a number belongs (no implicit conversion)',
      { partySize: '4' },
      [
        'partySize: partySize must not be greater than 12',
        'partySize: partySize must not be less than 1',
        'partySize: partySize must be an integer number',
      ],
    ],
    ['a too-long string', { code: 'ABCDEF' }, ['code: code must be shorter than or equal to 5 characters']],
    [
      'a value outside the enum',
      { seating: 'roof' },
      ['seating: seating must be one of the following values: indoor, terrace'],
    ],
    [
      'a value outside @IsIn',
      { unit: 'furlongs' },
      ['unit: unit must be one of the following values: metric, imperial'],
    ],
    ['a bad nested email', { guest: { name: 'Ada', email: 'nope' } }, ['guest.email: email must be an email']],
    [
      'a nested value that is not an object',
      { guest: 'Ada' },
      ['guest: nested property guest must be either object or array'],
    ],
    [
      'a bad element of a nested array',
      { guests: [{ name: 'Bo' }, { name: 7 }] },
      ['guests[1].name: name must be a string'],
    ],
    [
      'too many array elements',
      { guests: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
      ['guests: guests must contain no more than 2 elements'],
    ],
    ['a missing nested object', { guest: undefined }, ['guest: guest is required']],
    ['a missing name in a nested array element', { guests: [{}] }, ['guests[0].name: name must be a string']],
  ])('reports %s with its path', (_label, change, expected) => {
    expect(violationsOf(compileDtoValidator(Booking)({ ...valid, ...change }))).toEqual(expected);
  });

  it('reports every missing required property once, and accepts what initializers supply', () => {
    expect(violationsOf(compileDtoValidator(Booking)({}))).toEqual([
      'partySize: partySize must not be greater than 12',
      'partySize: partySize must not be less than 1',
      'partySize: partySize must be an integer number',
      'code: code must be shorter than or equal to 5 characters',
      'code: code must be a string',
      'seating: seating must be one of the following values: indoor, terrace',
      'guest: guest is required',
    ]);
  });

  it('strips unknown keys, at the top level and in nested DTOs, without rejecting them', () => {
    const result = compileDtoValidator(Booking)({ ...valid, extra: 1, guest: { name: 'Ada', admin: true } });
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, unknown> }).value;
    expect(value).not.toHaveProperty('extra');
    expect(value.guest).not.toHaveProperty('admin');
  });

  it('treats undefined as {} and refuses other non-objects with one violation', () => {
    class AllOptional {
      @IsOptional() @IsString() q?: string;
    }
    expect(compileDtoValidator(AllOptional)(undefined)).toEqual({ ok: true, value: expect.any(AllOptional) });
    expect(violationsOf(compileDtoValidator(Booking)(undefined))).toContain('guest: guest is required');
    expect(compileDtoValidator(Booking)([1, 2])).toEqual({
      ok: false,
      violations: ['arguments must be an object, got an array'],
    });
    expect(compileDtoValidator(Booking)('hello')).toEqual({
      ok: false,
      violations: ['arguments must be an object, got a string'],
    });
    expect(compileDtoValidator(Booking)(null)).toEqual({
      ok: false,
      violations: ['arguments must be an object, got null'],
    });
    expect(compileDtoValidator(Booking)(42)).toEqual({
      ok: false,
      violations: ['arguments must be an object, got a number'],
    });
  });

  it('is not fooled by __proto__ or constructor keys', () => {
    const raw = JSON.parse(
      '{"partySize":4,"code":"A","seating":"indoor","guest":{"name":"A"},"__proto__":{"polluted":true},"constructor":{"x":1}}',
    ) as unknown;
    const result = compileDtoValidator(Booking)(raw);
    expect(result.ok).toBe(true);
    const value = (result as { value: object }).value;
    expect(Object.getPrototypeOf(value)).toBe(Booking.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps and requires a property declared only with @McpProperty', () => {
    class Described {
      @McpProperty({ description: 'anything goes' }) payload!: unknown;
    }
    expect(compileDtoValidator(Described)({ payload: { a: 1 } })).toEqual({
      ok: true,
      value: expect.objectContaining({ payload: { a: 1 } }),
    });
    expect(compileDtoValidator(Described)({})).toEqual({ ok: false, violations: ['payload: payload is required'] });
  });

  it('accepts anything, keeping nothing, for a DTO without decorators', () => {
    class Empty {}
    const result = compileDtoValidator(Empty)({ a: 1 });
    expect(result).toEqual({ ok: true, value: expect.any(Empty) });
    expect(Object.keys((result as { value: object }).value)).toEqual([]);
  });

  it('runs custom synchronous validators', () => {
    const isEven = ValidateBy({
      name: 'isEven',
      validator: {
        validate: (v: unknown) => typeof v === 'number' && v % 2 === 0,
        defaultMessage: () => '$property must be even',
      },
    });
    class Even {
      @isEven n!: number;
    }
    expect(compileDtoValidator(Even)({ n: 2 }).ok).toBe(true);
    expect(compileDtoValidator(Even)({ n: 3 })).toEqual({ ok: false, violations: ['n: n must be even'] });
  });

  it("reports class-validator's own lines for a flat DTO of type checks, and keeps only its decorated keys", () => {
    class Flat {
      @IsNumber() a!: number;
      @IsInt() count!: number;
      @IsOptional() @IsBoolean() loud?: boolean;
      @IsOptional() @IsString() tag = 'none';
      unit = 'metric';
    }
    expect(compileDtoValidator(Flat)({ a: '1', count: 1.5, loud: 'yes' })).toEqual({
      ok: false,
      violations: [
        'a: a must be a number conforming to the specified constraints',
        'count: count must be an integer number',
        'loud: loud must be a boolean value',
      ],
    });
    const result = compileDtoValidator(Flat)({ a: 2, count: 3, extra: true });
    expect(result).toEqual({ ok: true, value: expect.any(Flat) });
    expect({ ...(result as { value: object }).value }).toEqual({ a: 2, count: 3, tag: 'none' });
  });

  describe('compileDtoValidator', () => {
    it('builds the validator once per class', () => {
      expect(compileDtoValidator(Booking)).toBe(compileDtoValidator(Booking));
    });

    it('refuses a DTO with an async validator, also in a nested DTO', () => {
      @ValidatorConstraint({ name: 'remoteCheck', async: true })
      class RemoteCheck implements ValidatorConstraintInterface {
        validate(): Promise<boolean> {
          return Promise.resolve(false);
        }
      }
      class Remote {
        @Validate(RemoteCheck) id!: string;
      }
      class Holder {
        @ValidateNested() @Type(() => Remote) remote!: Remote;
      }
      expect(() => compileDtoValidator(Remote)).toThrow(DtoDefinitionError);
      expect(() => compileDtoValidator(Holder)).toThrow(/^Remote\.id: has an asynchronous validator/);
    });

    it('refuses @ValidateNested without @Type and a nested class without rules', () => {
      class NoType {
        @ValidateNested() guest!: Guest;
      }
      class Bare {
        name!: string;
      }
      class HoldsBare {
        @ValidateNested() @Type(() => Bare) bare!: Bare;
      }
      expect(() => compileDtoValidator(NoType)).toThrow(/NoType\.guest: has @ValidateNested\(\) but no @Type/);
      expect(() => compileDtoValidator(HoldsBare)).toThrow(
        /^Bare: is used as a nested DTO but has no class-validator decorators/,
      );
    });
  });
});
