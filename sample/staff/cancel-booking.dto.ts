import { IsString, Matches } from 'class-validator';
import { McpProperty } from '../../src/index.js';

/** The booking a member of staff cancels. */
export class CancelBookingDto {
  @McpProperty({ description: 'The booking reference (eight letters and digits)' })
  @IsString()
  @Matches(/^[0-9A-F]{8}$/)
  reference!: string;
}
