import { Injectable, UseGuards } from '@nestjs/common';
import {
  ElicitationContext,
  type McpExchange,
  McpPrincipalSource,
  McpProgressReporter,
  McpTool,
} from '../../src/index.js';
import { CancelBookingDto } from './cancel-booking.dto.js';
import { BookingService } from '../booking/booking.service.js';
import { StaffOnlyGuard } from './staff-only.guard.js';

/** Staff tools: guarded, one slow enough to report progress, and one long enough to run as a task. */
@Injectable()
export class StaffTools {
  constructor(
    private readonly bookings: BookingService,
    private readonly progress: McpProgressReporter,
    private readonly principals: McpPrincipalSource,
    private readonly elicitation: ElicitationContext,
  ) {}

  /** Asks the member of staff to confirm first: the question's requestState is bound to them. */
  @McpTool({ name: 'cancel_booking', description: 'Cancels a booking by its reference, after a confirmation' })
  async cancelBooking(input: CancelBookingDto): Promise<string> {
    const answer = await this.elicitation.elicit(`Cancel booking ${input.reference}?`, (s) => s.boolean('confirm'));
    if (answer.action !== 'accept' || !answer.content.confirm) return 'Nothing was cancelled.';
    return this.bookings.cancel(input.reference)
      ? `Booking ${input.reference} is cancelled.`
      : `There is no booking ${input.reference}.`;
  }

  @McpTool({ name: 'whoami', description: 'Says who the caller is signed in as', annotations: { readOnlyHint: true } })
  whoami(_input: unknown, exchange: McpExchange): string {
    const subject = this.principals.resolve(exchange);
    return subject === null ? 'Not signed in (anonymous)' : `Signed in as ${subject}`;
  }

  @McpTool({
    name: 'list_bookings',
    description: 'Lists every booking (staff only: send the x-staff-token header)',
    annotations: { readOnlyHint: true },
  })
  @UseGuards(StaffOnlyGuard)
  listBookings() {
    return { bookings: this.bookings.all() };
  }

  @McpTool({ name: 'prepare_service', description: 'Prepares the dining room for tonight, reporting progress' })
  async prepareService(): Promise<string> {
    const steps = ['Set the tables', 'Polish the glasses', 'Brief the kitchen'];
    for (const [i, step] of steps.entries()) {
      this.progress.report(i, steps.length, step);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    this.progress.report(steps.length, steps.length, 'Ready');
    return 'The dining room is ready.';
  }

  /**
   * Long-running: clients that declare the tasks extension get a task at once and poll it
   * (`tasks/get`), seeing each progress report as the task's statusMessage; `tasks/cancel` aborts
   * the signal. Other clients simply wait for the result.
   */
  @McpTool({
    name: 'monthly_report',
    description: 'Compiles the monthly bookings report (long-running; runs as a task for clients that support tasks)',
    annotations: { readOnlyHint: true },
    taskSupport: 'optional',
  })
  async monthlyReport(): Promise<string> {
    const sections = ['Covers per seating', 'No-shows', 'Busiest evenings', 'Totals'];
    for (const [i, section] of sections.entries()) {
      this.progress.report(i, sections.length, `Compiling: ${section}`);
      await abortableDelay(500, this.progress.signal);
    }
    return `Monthly report: ${this.bookings.all().length} bookings, ${sections.length} sections compiled.`;
  }
}

/** Waits `ms`, or rejects as soon as the call's signal aborts (a cancelled task stops here). */
function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
