import { Module } from '@nestjs/common';
import { BookingService } from './booking.service.js';
import { BookingTools } from './booking.tools.js';

@Module({ providers: [BookingService, BookingTools] })
export class BookingModule {}
