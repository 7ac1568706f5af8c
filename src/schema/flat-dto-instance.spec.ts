import { Exclude, Expose, plainToInstance, Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsNumber, IsOptional, IsString, ValidateIf } from 'class-validator';
import { compileFlatDtoInstance } from './flat-dto-instance.js';

/** What class-transformer builds, stripped as `validateSync({ whitelist })` would (the reference). */
function reference(dto: new () => object, kept: ReadonlySet<string>, raw: object): object {
  const instance = plainToInstance(dto, raw, { enableImplicitConversion: false }) as Record<string, unknown>;
  for (const key of Object.keys(instance)) if (!kept.has(key)) delete instance[key];
  return instance;
}

const RAWS: readonly object[] = [
  {},
  { a: 1, b: 2 },
  { a: ' 7 ', b: 'Text', extra: true },
  { a: null, b: false },
  { a: 1.5 },
  JSON.parse('{"a":3,"__proto__":{"polluted":true},"constructor":{"x":1}}') as object,
];

class Trimmed {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  a!: string;
  @IsOptional() @IsNumber() b?: number;
}
class CopiesAnother {
  @IsOptional() @IsNumber() a?: number;
  @Transform(({ obj }: { obj: Record<string, unknown> }) => obj['a']) @IsOptional() @IsNumber() b?: number;
}
class Renamed {
  @Expose({ name: 'b' }) @IsInt() a!: number;
}
class Excluded {
  @Exclude() @IsOptional() @IsInt() a?: number;
  @IsOptional() @IsInt() b?: number;
}
class Converted {
  @Type(() => Number) @IsNumber() a!: number;
}
class ReadOnlyOwn {
  @IsOptional() @IsString() a?: string;
  @IsOptional() @IsInt() b?: number;
  constructor() {
    Object.defineProperty(this, 'a', { value: 'fixed', enumerable: true, writable: false });
  }
}

describe('compileFlatDtoInstance', () => {
  it('copies the kept properties when that builds what class-transformer builds (the value is the same object)', () => {
    class Plain {
      @IsOptional() @ValidateIf((o: Plain) => o.on === true) @IsString() a?: unknown;
      @IsOptional() @IsBoolean() on?: boolean;
      @IsOptional() @IsInt() b = 4;
    }
    const kept = new Set(['a', 'on', 'b']);
    const build = compileFlatDtoInstance(Plain, kept);
    for (const raw of RAWS) {
      const built = build(raw);
      expect(built).toBeInstanceOf(Plain);
      expect(built).toEqual(reference(Plain, kept, raw));
    }
    // class-transformer copies an object value; the copy hands the argument itself over.
    const nested = { deep: 1 };
    expect((build({ a: nested }) as Plain).a).toBe(nested);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each([
    ['a transform', Trimmed],
    ['a transform reading another property', CopiesAnother],
    ['a renamed property', Renamed],
    ['an excluded property', Excluded],
    ['a @Type conversion', Converted],
    ['a constructor that defines a read-only property', ReadOnlyOwn],
  ] as const)('builds what class-transformer builds for %s', (_label, dto: new () => object) => {
    const kept = new Set(['a', 'b']);
    const build = compileFlatDtoInstance(dto, kept);
    for (const raw of RAWS) {
      let expected: object | Error;
      try {
        expected = reference(dto, kept, raw);
      } catch (error) {
        expected = error as Error;
      }
      if (expected instanceof Error) expect(() => build(raw)).toThrow();
      else expect(build(raw)).toEqual(expected);
    }
  });
});
