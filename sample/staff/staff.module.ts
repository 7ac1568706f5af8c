import { Module } from '@nestjs/common';
import { BookingModule } from '../booking/booking.module.js';
import { StaffOnlyGuard } from './staff-only.guard.js';
import { StaffTools } from './staff.tools.js';

@Module({ imports: [BookingModule], providers: [StaffTools, StaffOnlyGuard] })
export class StaffModule {}
