import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsEnum,
  IsHexColor,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { DtoDefinitionError } from './dto-definition.error.js';
import { dtoToJsonSchema, mcpHeaderParams } from './dto-json-schema.js';
import { McpProperty } from './mcp-property.decorator.js';

enum Cuisine {
  Italian = 'italian',
  Thai = 'thai',
}
enum Priority {
  Low,
  High,
}

class Everything {
  @IsString() @MinLength(2) @MaxLength(40) name!: string;
  @IsString() @Length(3, 8) code!: string;
  @IsNumber() @Min(0.5) @Max(99.5) ratio!: number;
  @IsInt() @IsPositive() count!: number;
  @IsBoolean() vip!: boolean;
  @IsEmail() email!: string;
  @IsUrl() website!: string;
  @IsUUID() id!: string;
  @IsDateString() at!: string;
  @IsISO8601() since!: string;
  @IsIn(['s', 'm', 'l']) size!: string;
  @IsEnum(Cuisine) cuisine!: Cuisine;
  @IsEnum(Priority) priority!: Priority;
  @Matches(/^[A-Z]{2}-\d+$/) ref!: string;
  @IsString() @IsNotEmpty() note!: string;
  @IsObject() meta!: Record<string, unknown>;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsString({ each: true }) tags!: string[];
  @IsOptional() @IsString() comment?: string;
}

describe('dtoToJsonSchema', () => {
  it('maps every supported class-validator decorator to its JSON Schema keyword', () => {
    expect(dtoToJsonSchema(Everything)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 40 },
        code: { type: 'string', minLength: 3, maxLength: 8 },
        ratio: { type: 'number', minimum: 0.5, maximum: 99.5 },
        count: { type: 'integer', exclusiveMinimum: 0 },
        vip: { type: 'boolean' },
        email: { type: 'string', format: 'email' },
        website: { type: 'string', format: 'uri' },
        id: { type: 'string', format: 'uuid' },
        at: { type: 'string', format: 'date-time' },
        since: { type: 'string', format: 'date-time' },
        size: { type: 'string', enum: ['s', 'm', 'l'] },
        cuisine: { type: 'string', enum: ['italian', 'thai'] },
        priority: { type: 'integer', enum: [0, 1] },
        ref: { type: 'string', pattern: '^[A-Z]{2}-\\d+$' },
        note: { type: 'string', minLength: 1 },
        meta: { type: 'object' },
        tags: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string' } },
        comment: { type: 'string' },
      },
      required: [
        'name',
        'code',
        'ratio',
        'count',
        'vip',
        'email',
        'website',
        'id',
        'at',
        'since',
        'size',
        'cuisine',
        'priority',
        'ref',
        'note',
        'meta',
        'tags',
      ],
    });
  });

  it('emits no $schema and no additionalProperties (2020-12 is the MCP default; extra keys are stripped)', () => {
    const schema = dtoToJsonSchema(Everything);
    expect(schema).not.toHaveProperty('$schema');
    expect(schema).not.toHaveProperty('additionalProperties');
  });

  it('takes the type from design:type when no rule decides it, and ignores unknown validators', () => {
    const isEven = ValidateBy({
      name: 'isEven',
      validator: { validate: (v: unknown) => typeof v === 'number' && v % 2 === 0 },
    });
    class Loose {
      @IsHexColor() colour!: string;
      @isEven count!: number;
      @IsOptional() flag?: boolean;
      @IsOptional() anything?: unknown;
    }
    expect(dtoToJsonSchema(Loose)).toEqual({
      type: 'object',
      properties: { colour: { type: 'string' }, count: { type: 'number' }, flag: { type: 'boolean' }, anything: {} },
      required: ['colour', 'count'],
    });
  });

  it('infers string from string-only rules and keeps the tightest of overlapping bounds', () => {
    class Bounds {
      @MinLength(2) @Length(4, 10) @MaxLength(8) slug!: string;
      @Min(1) @Min(3) @Max(10) @Max(7) n!: number;
      @IsNumber() @IsInt() both!: number;
    }
    expect(dtoToJsonSchema(Bounds).properties).toEqual({
      slug: { type: 'string', minLength: 4, maxLength: 8 },
      n: { type: 'number', minimum: 3, maximum: 7 },
      both: { type: 'integer' },
    });
  });

  it('leaves out a pattern whose flags JSON Schema cannot express, and accepts string patterns', () => {
    class Patterns {
      @Matches(/^abc$/i) caseless!: string;
      @Matches('^x+$') plain!: string;
      @Matches('^y+$', 'i') flagged!: string;
    }
    expect(dtoToJsonSchema(Patterns).properties).toEqual({
      caseless: { type: 'string' },
      plain: { type: 'string', pattern: '^x+$' },
      flagged: { type: 'string' },
    });
  });

  it('intersects IsIn with IsEnum and types a mixed list by enum alone', () => {
    class Lists {
      @IsIn(['italian', 'french']) @IsEnum(Cuisine) cuisine!: string;
      @IsIn([1, 'one', true]) mixed!: unknown;
    }
    expect(dtoToJsonSchema(Lists).properties).toEqual({
      cuisine: { type: 'string', enum: ['italian'] },
      mixed: { enum: [1, 'one', true] },
    });
  });

  describe('nested DTOs', () => {
    class Guest {
      @McpProperty({ description: 'Full name' }) @IsString() name!: string;
      @IsOptional() @IsEmail() email?: string;
    }
    class Booking {
      @McpProperty({ description: 'Who books' }) @ValidateNested() @Type(() => Guest) host!: Guest;
      @IsArray() @ArrayMaxSize(8) @ValidateNested({ each: true }) @Type(() => Guest) guests!: Guest[];
      @IsOptional() @ValidateNested() @Type(() => Guest) contact?: Guest;
    }
    const guestSchema = {
      type: 'object',
      properties: { name: { description: 'Full name', type: 'string' }, email: { type: 'string', format: 'email' } },
      required: ['name'],
    };

    it('inlines nested objects and array items, with the property annotations on the outer schema', () => {
      expect(dtoToJsonSchema(Booking)).toEqual({
        type: 'object',
        properties: {
          host: { description: 'Who books', ...guestSchema },
          guests: { type: 'array', maxItems: 8, items: guestSchema },
          contact: guestSchema,
        },
        required: ['host', 'guests'],
      });
    });

    it('treats a @ValidateNested array without @IsArray as an array by its design type', () => {
      class Party {
        @ValidateNested({ each: true }) @Type(() => Guest) guests!: Guest[];
      }
      expect(dtoToJsonSchema(Party).properties).toEqual({ guests: { type: 'array', items: guestSchema } });
    });

    it('cuts a class that contains itself with a bare object schema', () => {
      class TreeNode {
        @IsString() label!: string;
        @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
      }
      expect(dtoToJsonSchema(TreeNode)).toEqual({
        type: 'object',
        properties: {
          label: { type: 'string' },
          children: { type: 'array', items: { type: 'object' } },
        },
        required: ['label'],
      });
    });

    it('refuses @ValidateNested without @Type, naming the class and property', () => {
      class Broken {
        @ValidateNested() guest!: Guest;
      }
      expect(() => dtoToJsonSchema(Broken)).toThrow(DtoDefinitionError);
      expect(() => dtoToJsonSchema(Broken)).toThrow(/^Broken\.guest: has @ValidateNested\(\) but no @Type/);
    });
  });

  describe('@McpProperty', () => {
    it('merges title, description, examples and default into the property schema', () => {
      class Annotated {
        @McpProperty({ title: 'Party size', description: 'Number of guests', examples: [2, 4], default: 2 })
        @IsInt()
        @Min(1)
        @Max(12)
        partySize!: number;
      }
      const property = (dtoToJsonSchema(Annotated).properties as Record<string, object>).partySize;
      expect(property).toEqual({
        title: 'Party size',
        description: 'Number of guests',
        type: 'integer',
        minimum: 1,
        maximum: 12,
        default: 2,
        examples: [2, 4],
      });
      expect(Object.keys(property)).toEqual([
        'title',
        'description',
        'type',
        'minimum',
        'maximum',
        'default',
        'examples',
      ]);
    });

    it('makes a property with a field initializer optional and uses the initializer as default', () => {
      class WithDefault {
        @IsIn(['metric', 'imperial']) unit = 'metric';
        @IsInt() days!: number;
      }
      expect(dtoToJsonSchema(WithDefault)).toEqual({
        type: 'object',
        properties: {
          unit: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' },
          days: { type: 'integer' },
        },
        required: ['days'],
      });
    });
  });

  it('lists base-class properties first and lets a subclass add its own', () => {
    class Base {
      @IsString() id!: string;
    }
    class Derived extends Base {
      @IsInt() count!: number;
    }
    const schema = dtoToJsonSchema(Derived);
    expect(Object.keys(schema.properties as object)).toEqual(['id', 'count']);
    expect(schema.required).toEqual(['id', 'count']);
    expect(dtoToJsonSchema(Base).properties).toEqual({ id: { type: 'string' } });
  });

  it('computes once per class: the same frozen object every time', () => {
    class Cached {
      @McpProperty({ header: 'Region', examples: ['eu'] }) @IsString() region!: string;
    }
    const first = dtoToJsonSchema(Cached);
    expect(dtoToJsonSchema(Cached)).toBe(first);
    expect(mcpHeaderParams(Cached)).toBe(mcpHeaderParams(Cached));
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first.properties as Record<string, { examples: unknown[] }>).region.examples)).toBe(true);
    expect(() => {
      (first as Record<string, unknown>).extra = 1;
    }).toThrow(TypeError);
  });

  it('gives an object schema for a class without decorators', () => {
    class Nothing {}
    expect(dtoToJsonSchema(Nothing)).toEqual({ type: 'object', properties: {} });
  });
});
