import { Injectable } from '@nestjs/common';
import {
  type CallToolResult,
  ElicitationContext,
  McpPrincipalSource,
  McpTool,
  clientRendersApps,
  type McpExchange,
} from '../../src/index.js';
import { SEATING_PICKER_URI } from '../apps/seating-picker.app.js';
import { callerOf } from './booking-caller.js';
import { BookingService } from './booking.service.js';
import { BookSeatingDto } from './dto/book-seating.dto.js';
import { BookTableDto } from './dto/book-table.dto.js';
import { FindTablesDto } from './dto/find-tables.dto.js';

@Injectable()
export class BookingTools {
  constructor(
    private readonly bookings: BookingService,
    private readonly elicitation: ElicitationContext,
    private readonly principals: McpPrincipalSource,
  ) {}

  /**
   * Answers at once. Hosts that render MCP Apps show the result in the seating picker
   * (`structuredContent` feeds it); every client gets the free seatings as text too.
   */
  @McpTool({
    name: 'find_tables',
    title: 'Find tables',
    description: 'Lists the seatings that still have a free table',
    annotations: { readOnlyHint: true },
    ui: { resourceUri: SEATING_PICKER_URI },
  })
  findTables(input: FindTablesDto, exchange: McpExchange) {
    const times = this.bookings.availableTimes(input.date);
    const found =
      times.length > 0
        ? `Free seatings for ${input.partySize} on ${input.date}: ${times.join(', ')}.`
        : `No table left for ${input.partySize} on ${input.date}.`;
    const next = clientRendersApps(exchange)
      ? ' The guest can pick one in the seating picker, or book one with book_table.'
      : ' Book one with book_table.';
    return {
      content: [{ type: 'text', text: times.length > 0 ? found + next : found }],
      structuredContent: { date: input.date, partySize: input.partySize, times },
    };
  }

  /**
   * The seating picker's own booking: the guest chose the time and confirmed in the app, so nothing
   * is asked. Visible to apps only: hosts keep it from the model, and clients that do not render
   * apps neither see nor call it.
   */
  @McpTool({
    name: 'book_seating',
    title: 'Book a picked seating',
    description: 'Books the seating the guest picked in the seating picker',
    ui: { resourceUri: SEATING_PICKER_URI, visibility: ['app'] },
  })
  bookSeating(input: BookSeatingDto, exchange: McpExchange) {
    const booking = this.bookings.book(input, callerOf(this.principals, exchange));
    if (!booking) return seatingTaken(input);
    return {
      content: [
        {
          type: 'text',
          text: `Booked a table for ${booking.partySize} at ${booking.time} on ${booking.date} under ${booking.name}: reference ${booking.reference}.`,
        },
      ],
      structuredContent: {
        reference: booking.reference,
        date: booking.date,
        time: booking.time,
        partySize: booking.partySize,
      },
    };
  }

  /**
   * Asks the guest to pick a seating, then to confirm. Everything before the last elicit re-runs
   * on each round trip, so the booking itself happens only after the final answer, and
   * `exactlyOnce` makes sure a replayed final round (a client retrying a timed-out POST) books
   * nothing more: it gets the first booking's result. When another guest takes a seating between
   * two rounds, the offered times change and the question is simply asked again.
   */
  @McpTool({
    name: 'book_table',
    title: 'Book a table',
    description: 'Books a table, asking the guest to choose a time and confirm',
    exactlyOnce: true,
  })
  async bookTable(input: BookTableDto, exchange: McpExchange) {
    const times = this.bookings.availableTimes(input.date);
    if (times.length === 0) return `Sorry, we are fully booked on ${input.date}.`;

    const choice = await this.elicitation.elicit(
      `Which time would you like on ${input.date}?`,
      (s) => s.choose('time', times, { title: 'Seating' }),
      { whenChanged: 'reask' },
    );
    if (choice.action !== 'accept') return 'No booking made.';

    const confirmation = await this.elicitation.elicit(
      `Book a table for ${input.partySize} at ${choice.content.time} on ${input.date} under ${input.name}?`,
      (s) => s.boolean('confirm', { title: 'Confirm booking' }),
    );
    if (confirmation.action !== 'accept' || !confirmation.content.confirm) return 'No booking made.';

    const booking = this.bookings.book({ ...input, time: choice.content.time }, callerOf(this.principals, exchange));
    // Another guest took the last table after this answer was given (between two requests).
    if (!booking) return seatingTaken({ ...input, time: choice.content.time });
    return { reference: booking.reference, date: booking.date, time: booking.time, partySize: booking.partySize };
  }
}

/**
 * A seating that filled up: an expected refusal, so a tool error the model can act on (it can look
 * for another seating), not a thrown error, which the server would log as a failure with its stack.
 */
function seatingTaken(request: { date: string; time: string; partySize: number }): CallToolResult {
  return {
    content: [
      {
        type: 'text',
        text:
          `No table left at ${request.time} on ${request.date}: another guest took the last one. ` +
          `Nothing was booked. Call find_tables for the seatings still free for ${request.partySize}, and book one of those.`,
      },
    ],
    isError: true,
  };
}
