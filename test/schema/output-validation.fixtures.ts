import { Injectable, Module } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsNumber, IsString, Min, ValidateNested } from 'class-validator';
import { z } from 'zod';
import { type CallToolResult, McpModule, McpTool } from '../../src/index.js';

// Tools whose results are held to their output schema: one generated from a DTO return type, a
// hand-written JSON Schema, zod schemas (one that checks asynchronously), and a task. Each takes a
// `mode` that makes it return a conforming result or a broken one. The broken values carry
// SECRET, which must reach neither the client's error text nor the log.

export class ModeDto {
  @IsIn(['good', 'bad', 'none']) mode!: 'good' | 'bad' | 'none';
}

export class QuoteLineDto {
  @IsString() sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

export class QuoteDto {
  @IsIn(['EUR', 'USD']) currency!: string;
  @IsNumber() @Min(0) total!: number;
  @IsArray() @ValidateNested({ each: true }) @Type(() => QuoteLineDto) lines!: QuoteLineDto[];
}

export const GOOD_QUOTE = { currency: 'EUR', total: 12.5, lines: [{ sku: 'A-1', quantity: 2 }] };

export const STOCK_SCHEMA = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string', pattern: '^[A-Z]-\\d+$' }, count: { type: 'integer', minimum: 0 } },
        required: ['sku', 'count'],
        additionalProperties: false,
      },
    },
  },
  required: ['items'],
};

/** zod: a default the handler leaves out, an unknown key it adds (stripped). */
export const ZodBooking = z.object({
  booked: z.boolean(),
  seats: z.number().int(),
  note: z.string().default('none'),
});

/** A zod output only checked asynchronously. */
export const ZodVoucher = z.object({ code: z.string() }).refine(
  async (value) => {
    await new Promise((resolve) => setImmediate(resolve));
    return value.code !== 'SECRET-TAKEN';
  },
  { message: 'this voucher is already taken', path: ['code'] },
);

@Injectable()
export class OutputTools {
  @McpTool({ description: 'Quotes an order (DTO output)' })
  quote(input: ModeDto): QuoteDto {
    if (input.mode === 'good') return GOOD_QUOTE;
    return { currency: 'SECRET-GBP', total: 'SECRET-TOTAL', lines: [{ sku: 'A-1', quantity: 0 }] } as never;
  }

  @McpTool({ description: 'Lists the stock (JSON Schema output)', outputSchema: STOCK_SCHEMA })
  stock(input: ModeDto): CallToolResult | string {
    if (input.mode === 'none') return 'SECRET: the stock as text only';
    const items =
      input.mode === 'good'
        ? [{ sku: 'A-1', count: 3 }]
        : [
            { sku: 'A-1', count: 3 },
            { sku: 'SECRET-sku', count: -1, extra: true },
          ];
    return { content: [{ type: 'text', text: `${items.length} items` }], structuredContent: { items } };
  }

  @McpTool({ description: 'Fails on its own (JSON Schema output)', outputSchema: STOCK_SCHEMA })
  broken(): never {
    throw new Error('the stock service is down');
  }

  @McpTool({ description: 'Books a table (zod output)', output: ZodBooking })
  book(input: ModeDto) {
    if (input.mode === 'good') return { booked: true, seats: 2, extra: 'stripped' };
    return { booked: 'SECRET-yes', seats: 2.5 };
  }

  @McpTool({ description: 'Redeems a voucher (async zod output)', output: ZodVoucher })
  redeem(input: ModeDto) {
    return { code: input.mode === 'good' ? 'SPRING' : 'SECRET-TAKEN' };
  }

  @McpTool({
    description: 'Counts as a task (JSON Schema output)',
    outputSchema: STOCK_SCHEMA,
    taskSupport: 'optional',
  })
  async count(input: ModeDto) {
    await new Promise((resolve) => setImmediate(resolve));
    return { items: input.mode === 'good' ? [{ sku: 'B-2', count: 1 }] : [{ sku: 'B-2' }] };
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'output-validation',
      version: '0.0.1',
      mrtr: { secrets: ['output-validation-secret-0123456789abcdef0123'] },
      tasks: { ttlMs: 60_000, pollIntervalMs: 50 },
    }),
  ],
  providers: [OutputTools],
})
export class OutputValidationModule {}
