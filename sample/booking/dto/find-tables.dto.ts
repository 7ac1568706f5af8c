import { IsInt, IsISO8601, Max, Min } from 'class-validator';
import { McpProperty } from '../../../src/index.js';

export class FindTablesDto {
  @McpProperty({ description: 'Day of the booking, YYYY-MM-DD' })
  @IsISO8601({ strict: true })
  date!: string;

  @McpProperty({ description: 'Number of guests' })
  @IsInt()
  @Min(1)
  @Max(12)
  partySize!: number;
}
