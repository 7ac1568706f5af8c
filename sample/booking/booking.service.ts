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
  /** Who made each booking (by reference): the only caller it is shown to. */
  private readonly bookedBy = new Map<string, string>();

  /** Seatings that still have a table for that day. */
  availableTimes(date: string): string[] {
    return SEATINGS.filter(
      (time) => this.bookings.filter((b) => b.date === date && b.time === time).length < TABLES_PER_SEATING,
    );
  }

  /**
   * Books the seating for `caller` (see `callerOf`), or answers `undefined` when it has no table
   * left: an expected refusal (another guest took the last table), not a failure.
   */
  book(request: Omit<Booking, 'reference'>, caller: string): Booking | undefined {
    if (!this.availableTimes(request.date).includes(request.time)) return undefined;
    const booking = { ...request, reference: randomUUID().slice(0, 8).toUpperCase() };
    this.bookings.push(booking);
    this.bookedBy.set(booking.reference, caller);
    return booking;
  }

  /** The booking with that reference, for the caller who made it; for anyone else, none. */
  bookingOf(reference: string, caller: string): Booking | undefined {
    if (this.bookedBy.get(reference) !== caller) return undefined;
    return this.bookings.find((b) => b.reference === reference);
  }

  /** Cancels the booking with that reference; false when there is none. */
  cancel(reference: string): boolean {
    const index = this.bookings.findIndex((b) => b.reference === reference);
    if (index < 0) return false;
    this.bookings.splice(index, 1);
    this.bookedBy.delete(reference);
    return true;
  }

  all(): readonly Booking[] {
    return this.bookings;
  }
}
