// The generated schemas checked by an independent JSON Schema 2020-12 implementation (Ajv, strict
// mode): they must be valid schemas, and accept and reject the same arguments as the compiled DTO validator.
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { dtoToJsonSchema } from './dto-json-schema.js';
import { compileDtoValidator } from './dto-validator.js';
import { McpProperty } from './mcp-property.decorator.js';

enum Seating {
  Indoor = 'indoor',
  Terrace = 'terrace',
}

class Guest {
  @McpProperty({ description: 'Full name' }) @IsString() @IsNotEmpty() name!: string;
  @IsOptional() @IsEmail() email?: string;
}

class BookTable {
  @McpProperty({ header: 'Region', examples: ['eu'] }) @IsIn(['eu', 'us']) region!: string;
  @IsInt() @Min(1) @Max(12) partySize!: number;
  @IsDateString() at!: string;
  @IsEnum(Seating) seating!: Seating;
  @Matches(/^[A-Z]{3}$/) restaurant!: string;
  @IsOptional() @IsString() @Length(0, 200) notes?: string;
  @IsOptional() @IsPositive() budget?: number;
  @IsOptional() @IsBoolean() vip?: boolean;
  @IsOptional() @IsUUID() requestId?: string;
  @ValidateNested() @Type(() => Guest) host!: Guest;
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => Guest)
  guests?: Guest[];
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
}

const ajv = new Ajv2020({ strict: true, allErrors: true });
ajvFormats.default(ajv);
ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });

const valid = {
  region: 'eu',
  partySize: 4,
  at: '2026-08-01T19:30:00Z',
  seating: 'terrace',
  restaurant: 'ABC',
  host: { name: 'Ada', email: 'ada@example.com' },
};

describe('dtoToJsonSchema against an independent JSON Schema 2020-12 validator', () => {
  const schema = dtoToJsonSchema(BookTable);

  it('produces a valid 2020-12 schema that compiles in strict mode', () => {
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it.each<[string, Record<string, unknown>, boolean]>([
    ['the minimal valid call', valid, true],
    [
      'every optional argument',
      {
        ...valid,
        notes: 'window',
        budget: 80,
        vip: true,
        requestId: '2f1c6b1e-9a43-4c1e-8f5e-1b2a3c4d5e6f',
        guests: [{ name: 'Bo' }],
        tags: ['quiet'],
      },
      true,
    ],
    ['an unknown argument (stripped, not rejected)', { ...valid, extra: 1 }, true],
    ['a region outside the list', { ...valid, region: 'asia' }, false],
    ['a party too large', { ...valid, partySize: 13 }, false],
    ['a fractional party size', { ...valid, partySize: 2.5 }, false],
    ['a number sent as a string', { ...valid, partySize: '4' }, false],
    ['a date that is not a date', { ...valid, at: 'tomorrow' }, false],
    ['an unknown seating', { ...valid, seating: 'roof' }, false],
    ['a restaurant code that does not match', { ...valid, restaurant: 'abcd' }, false],
    ['notes that are too long', { ...valid, notes: 'x'.repeat(201) }, false],
    ['a zero budget', { ...valid, budget: 0 }, false],
    ['a non-UUID request id', { ...valid, requestId: 'nope' }, false],
    ['a missing host', { ...valid, host: undefined }, false],
    ['a host with an empty name', { ...valid, host: { name: '' } }, false],
    ['a host with a bad email', { ...valid, host: { name: 'Ada', email: 'ada' } }, false],
    ['a host that is a string', { ...valid, host: 'Ada' }, false],
    ['an empty guest list', { ...valid, guests: [] }, false],
    ['too many guests', { ...valid, guests: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] }, false],
    ['a guest without a name', { ...valid, guests: [{ name: 'a' }, {}] }, false],
    ['a tag that is not a string', { ...valid, tags: ['ok', 3] }, false],
    ['a boolean sent as a string', { ...valid, vip: 'true' }, false],
  ])('agrees with the compiled DTO validator on %s (valid: %s)', (_label, args, expected) => {
    const json = JSON.parse(JSON.stringify(args)) as unknown;
    expect({ schema: ajv.validate(schema, json), dto: compileDtoValidator(BookTable)(json).ok }).toEqual({
      schema: expected,
      dto: expected,
    });
  });
});
