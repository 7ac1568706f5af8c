import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { dtoToJsonSchema, mcpHeaderParams } from './dto-json-schema.js';
import { getMcpPropertyOptions, McpProperty } from './mcp-property.decorator.js';

describe('@McpProperty', () => {
  it('stores its options on the property, inherited by subclasses and overridable', () => {
    class Base {
      @McpProperty({ description: 'base', examples: ['a'] }) @IsString() id!: string;
      @McpProperty({ description: 'kept' }) @IsString() other!: string;
    }
    class Derived extends Base {
      @McpProperty({ description: 'derived' }) declare id: string;
    }
    expect(getMcpPropertyOptions(Base, 'id')).toEqual({ description: 'base', examples: ['a'] });
    expect(getMcpPropertyOptions(Derived, 'id')).toEqual({ description: 'derived' });
    expect(getMcpPropertyOptions(Derived, 'other')).toEqual({ description: 'kept' });
    expect(getMcpPropertyOptions(Base, 'missing')).toBeUndefined();
  });

  it('copies the examples it is given', () => {
    const examples = ['a'];
    class Copy {
      @McpProperty({ examples }) @IsString() id!: string;
    }
    examples.push('b');
    expect(getMcpPropertyOptions(Copy, 'id')?.examples).toEqual(['a']);
  });

  it.each(['', 'Two Words', 'Région', 'a:b', 'x\r\ny'])(
    'refuses the header name %j when the class is defined',
    (header) => {
      expect(() => McpProperty({ header })).toThrow(/is not a valid HTTP header name token/);
    },
  );

  it.each(['Region', 'Dry-Run', "x!#$%&'*+.^_`|~1"])('accepts the RFC 9110 token %j', (header) => {
    expect(() => McpProperty({ header })).not.toThrow();
  });

  it('emits x-mcp-header on top-level string, integer and boolean properties and lists them', () => {
    class Routed {
      @McpProperty({ header: 'Region' }) @IsIn(['eu', 'us']) region!: string;
      @McpProperty({ header: 'Shard' }) @IsInt() shard!: number;
      @McpProperty({ header: 'Dry-Run' }) @IsOptional() @IsBoolean() dryRun?: boolean;
      @IsString() query!: string;
    }
    const properties = dtoToJsonSchema(Routed).properties as Record<string, Record<string, unknown>>;
    expect(properties.region).toEqual({ type: 'string', enum: ['eu', 'us'], 'x-mcp-header': 'Region' });
    expect(properties.shard['x-mcp-header']).toBe('Shard');
    expect(properties.dryRun['x-mcp-header']).toBe('Dry-Run');
    expect(properties.query).not.toHaveProperty('x-mcp-header');
    expect(mcpHeaderParams(Routed)).toEqual([
      { property: 'region', header: 'Region' },
      { property: 'shard', header: 'Shard' },
      { property: 'dryRun', header: 'Dry-Run' },
    ]);
  });

  it('does not emit a nested DTO header (only top-level arguments are mirrored)', () => {
    class Inner {
      @McpProperty({ header: 'Region' }) @IsString() region!: string;
    }
    class Outer {
      @ValidateNested() @Type(() => Inner) inner!: Inner;
    }
    expect(JSON.stringify(dtoToJsonSchema(Outer))).not.toContain('x-mcp-header');
    expect(mcpHeaderParams(Outer)).toEqual([]);
    expect(mcpHeaderParams(Inner)).toEqual([{ property: 'region', header: 'Region' }]);
  });

  it('refuses a header on a number, object or untyped property', () => {
    class OnNumber {
      @McpProperty({ header: 'Price' }) @IsNumber() price!: number;
    }
    class OnObject {
      @McpProperty({ header: 'Meta' }) @IsObject() meta!: object;
    }
    class Untyped {
      @McpProperty({ header: 'Any' }) anything!: unknown;
    }
    expect(() => dtoToJsonSchema(OnNumber)).toThrow(
      /^OnNumber\.price: x-mcp-header "Price" needs a string, integer or boolean property, but its schema type is number/,
    );
    expect(() => mcpHeaderParams(OnObject)).toThrow(/type is object/);
    expect(() => dtoToJsonSchema(Untyped)).toThrow(/type is undetermined/);
  });

  it('refuses the same header name twice, case-insensitively', () => {
    class Twice {
      @McpProperty({ header: 'Region' }) @IsString() a!: string;
      @McpProperty({ header: 'region' }) @IsString() b!: string;
    }
    expect(() => dtoToJsonSchema(Twice)).toThrow('Twice.b: x-mcp-header "region" is already used by a');
  });
});
