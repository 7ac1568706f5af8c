import { Injectable, Module } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Max, Min, MinLength, ValidateNested } from 'class-validator';
import * as v from 'valibot';
import { z } from 'zod';
import { McpModule, McpTool } from '../../src/index.js';

// The same booking, written once with class-validator and once with zod, so the two tools can be
// held to the same advertised schema and the same answer to the same bad arguments.

export class GuestDto {
  @IsString() name!: string;
}

export class BookingDto {
  @IsString() @MinLength(2) name!: string;
  @IsInt() @Min(1) @Max(12) partySize!: number;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => GuestDto) guests?: GuestDto[];
}

export const ZodBooking = z.object({
  name: z.string().min(2),
  partySize: z.number().int().min(1).max(12),
  guests: z.array(z.object({ name: z.string() })).optional(),
});

export const ZodBookingResult = z.object({ booked: z.boolean(), for: z.string(), seats: z.number().int() });

/** Defaults and transforms: the handler gets what the schema answers, not the raw arguments. */
export const ZodNote = z.object({
  text: z.string().transform((s) => s.trim().toUpperCase()),
  copies: z.number().int().default(2),
});

/** zod's metadata reaches its JSON Schema: an argument mirrored in an Mcp-Param header. */
export const ZodRegion = z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) });

/** A refinement only an asynchronous check can make (a lookup, say). */
export const ZodVoucher = z.object({ code: z.string() }).refine(
  async (value) => {
    await new Promise((resolve) => setImmediate(resolve));
    return value.code !== 'TAKEN';
  },
  { message: 'this voucher was already used', path: ['code'] },
);

/** valibot has no Standard JSON Schema converter: its tool states its inputSchema beside it. */
export const ValibotBooking = v.object({
  name: v.pipe(v.string(), v.minLength(2)),
  partySize: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)),
});

export const VALIBOT_BOOKING_JSON_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2 },
    partySize: { type: 'integer', minimum: 1, maximum: 12 },
  },
  required: ['name', 'partySize'],
};

/** An explicit inputSchema wins over the one zod would derive. */
export const EXPLICIT_VOUCHER_SCHEMA = {
  type: 'object',
  title: 'Voucher',
  properties: { code: { type: 'string', pattern: '^[A-Z]+$' } },
  required: ['code'],
};

/** What each handler received, to check the validated value reached it. */
export const received: unknown[] = [];

@Injectable()
export class BookingTools {
  @McpTool({ description: 'Books a table (class-validator)' })
  book_dto(input: BookingDto) {
    received.push(input);
    return { booked: true, for: input.name, seats: input.partySize };
  }

  @McpTool({ description: 'Books a table (zod)', input: ZodBooking, output: ZodBookingResult })
  book_zod(input: z.infer<typeof ZodBooking>) {
    received.push(input);
    return { booked: true, for: input.name, seats: input.partySize };
  }

  @McpTool({ description: 'Books a table (valibot)', input: ValibotBooking, inputSchema: VALIBOT_BOOKING_JSON_SCHEMA })
  book_valibot(input: v.InferOutput<typeof ValibotBooking>) {
    received.push(input);
    return { booked: true, for: input.name, seats: input.partySize };
  }

  @McpTool({ description: 'Checks a code', input: ZodVoucher, inputSchema: EXPLICIT_VOUCHER_SCHEMA })
  check_code(input: z.infer<typeof ZodVoucher>) {
    return `Valid ${input.code}`;
  }

  @McpTool({ description: 'Answers the region', input: ZodRegion })
  regional(input: z.infer<typeof ZodRegion>) {
    return input.region;
  }

  @McpTool({ description: 'Writes a note', input: ZodNote })
  note(input: z.infer<typeof ZodNote>) {
    received.push(input);
    return { text: input.text, copies: input.copies };
  }

  @McpTool({ description: 'Redeems a voucher', input: ZodVoucher })
  redeem(input: z.infer<typeof ZodVoucher>) {
    return `Redeemed ${input.code}`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'standard-schema', version: '0.0.1' })],
  providers: [BookingTools],
})
export class StandardSchemaModule {}
