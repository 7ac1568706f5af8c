import { Injectable } from '@nestjs/common';
import {
  type McpExchange,
  McpError,
  McpPrincipalSource,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
} from '../../src/index.js';
import { callerOf } from './booking-caller.js';
import { BookingService } from './booking.service.js';
import { OccasionDto } from './dto/occasion.dto.js';

const MENU = `# Bistro menu

- Soupe à l'oignon — 9
- Confit de canard — 24
- Tarte Tatin — 8
`;

/** A prompt and resources: the menu, and each booking by its reference. */
@Injectable()
export class MenuResources {
  constructor(
    private readonly bookings: BookingService,
    private readonly principals: McpPrincipalSource,
  ) {}

  @McpResource({
    uri: 'bistro://menu',
    name: 'menu',
    title: 'Menu',
    description: "Tonight's menu",
    mimeType: 'text/markdown',
  })
  menu(): string {
    return MENU;
  }

  @McpResourceTemplate({
    uriTemplate: 'bistro://bookings/{reference}',
    name: 'booking',
    description: 'One of your bookings, by its reference',
    mimeType: 'application/json',
  })
  booking(input: { reference: string; uri: string }, exchange: McpExchange): object {
    // A guest's name and email are shown only to whoever booked: to anyone else the reference
    // does not exist (the same answer as an unknown one, so references cannot be probed).
    const booking = this.bookings.bookingOf(input.reference, callerOf(this.principals, exchange));
    if (!booking) throw McpError.resourceNotFound(input.uri);
    return booking;
  }

  @McpPrompt({
    name: 'plan_evening',
    title: 'Plan an evening',
    description: 'Suggests how to plan a dinner for an occasion',
  })
  planEvening(args: OccasionDto): string {
    return `We are planning a ${args.occasion} dinner at the bistro. Read bistro://menu, suggest a seating with find_tables, and book it with book_table.`;
  }
}
