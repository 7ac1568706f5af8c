import { Matches } from 'class-validator';
import { McpProperty } from '../../../src/index.js';
import { BookTableDto } from './book-table.dto.js';

/** A booking the guest completed in the seating picker: the time is already chosen. */
export class BookSeatingDto extends BookTableDto {
  @McpProperty({ description: 'The seating picked, HH:MM' })
  @Matches(/^\d{2}:\d{2}$/)
  time!: string;
}
