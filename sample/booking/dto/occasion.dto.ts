import { IsIn } from 'class-validator';
import { McpProperty } from '../../../src/index.js';

export class OccasionDto {
  @McpProperty({ description: 'What the evening is for' })
  @IsIn(['birthday', 'anniversary', 'business', 'casual'])
  occasion!: string;
}
