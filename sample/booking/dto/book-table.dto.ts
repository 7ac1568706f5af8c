import { IsEmail, IsString, MaxLength } from 'class-validator';
import { McpProperty } from '../../../src/index.js';
import { FindTablesDto } from './find-tables.dto.js';

/** What a booking needs: the search (day and party size) plus who it is for. */
export class BookTableDto extends FindTablesDto {
  @McpProperty({ description: 'Name the table is booked under' })
  @IsString()
  @MaxLength(80)
  name!: string;

  @McpProperty({ description: 'Where the confirmation goes' })
  @IsEmail()
  email!: string;
}
