import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';

export interface Booking {
  readonly reference: string;
  readonly date: string;
  readonly time: string;
  readonly partySize: number;
  readonly name: string;
  readonly email: string;
}

const SEATINGS = ['18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00'];
const TABLES_PER_SEATING = 4;

/** An in-memory reservation book: enough of a domain to show tools with real rules. */
@Injectable()
export class BookingService {
  private readonly bookings: Booking[] = [];

  /** Seatings that still have a table for that day. */
  availableTimes(date: string): string[] {
    return SEATINGS.filter(
      (time) => this.bookings.filter((b) => b.date === date && b.time === time).length < TABLES_PER_SEATING,
    );
  }

  book(request: Omit<Booking, 'reference'>): Booking {
    if (!this.availableTimes(request.date).includes(request.time)) {
      throw new Error(`No table left at ${request.time} on ${request.date}`);
    }
    const booking = { ...request, reference: randomUUID().slice(0, 8).toUpperCase() };
    this.bookings.push(booking);
    return booking;
  }

  all(): readonly Booking[] {
    return this.bookings;
  }
}
