import { Injectable } from '@nestjs/common';
import { ElicitationContext, McpTool } from '../../src/index.js';
import { BookingService } from './booking.service.js';
import { BookTableDto } from './dto/book-table.dto.js';
import { FindTablesDto } from './dto/find-tables.dto.js';

@Injectable()
export class BookingTools {
  constructor(
    private readonly bookings: BookingService,
    private readonly elicitation: ElicitationContext,
  ) {}

  @McpTool({
    name: 'find_tables',
    title: 'Find tables',
    description: 'Lists the seatings that still have a free table',
    annotations: { readOnlyHint: true },
  })
  findTables(input: FindTablesDto) {
    const times = this.bookings.availableTimes(input.date);
    return { date: input.date, partySize: input.partySize, times };
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
