import { Module } from '@nestjs/common';
import { BookingService } from './booking.service.js';
import { BookingTools } from './booking.tools.js';
import { MenuResources } from './menu.resources.js';

@Module({ providers: [BookingService, BookingTools, MenuResources], exports: [BookingService] })
export class BookingModule {}
