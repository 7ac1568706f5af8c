import { Injectable, UseGuards } from '@nestjs/common';
import { McpProgressReporter, McpTool } from '../../src/index.js';
import { BookingService } from '../booking/booking.service.js';
import { StaffOnlyGuard } from './staff-only.guard.js';

/** Staff tools: guarded, and one slow enough to report progress. */
@Injectable()
export class StaffTools {
  constructor(
    private readonly bookings: BookingService,
    private readonly progress: McpProgressReporter,
  ) {}

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
}
