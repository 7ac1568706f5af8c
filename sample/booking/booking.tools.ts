import { Injectable } from '@nestjs/common';
import { ElicitationContext, McpTool, clientRendersApps, type McpExchange } from '../../src/index.js';
import { SEATING_PICKER_URI } from '../apps/seating-picker.app.js';
import { BookingService } from './booking.service.js';
import { BookSeatingDto } from './dto/book-seating.dto.js';
import { BookTableDto } from './dto/book-table.dto.js';
import { FindTablesDto } from './dto/find-tables.dto.js';

@Injectable()
export class BookingTools {
  constructor(
    private readonly bookings: BookingService,
    private readonly elicitation: ElicitationContext,
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
  bookSeating(input: BookSeatingDto) {
    const booking = this.bookings.book(input);
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
  async bookTable(input: BookTableDto) {
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

    const booking = this.bookings.book({ ...input, time: choice.content.time });
    return { reference: booking.reference, date: booking.date, time: booking.time, partySize: booking.partySize };
  }
}
