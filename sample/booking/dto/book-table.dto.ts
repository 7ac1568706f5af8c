import { IsEmail, IsInt, IsISO8601, IsString, Max, MaxLength, Min } from 'class-validator';
import { McpProperty } from '../../../src/index.js';

export class BookTableDto {
  @McpProperty({ description: 'Day of the booking, YYYY-MM-DD' })
  @IsISO8601({ strict: true })
  date!: string;

  @McpProperty({ description: 'Number of guests' })
  @IsInt()
  @Min(1)
  @Max(12)
  partySize!: number;

  @McpProperty({ description: 'Name the table is booked under' })
  @IsString()
  @MaxLength(80)
  name!: string;

  @McpProperty({ description: 'Where the confirmation goes' })
  @IsEmail()
  email!: string;
}
