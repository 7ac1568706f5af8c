import { Injectable } from '@nestjs/common';
import { IsInt, IsString, Min } from 'class-validator';
import { ElicitationContext, McpTool } from '@mocapi/nestjs';

export class PlaceOrderDto {
  @IsString() item!: string;
  @IsInt() @Min(1) quantity!: number;
}

@Injectable()
export class OrderTools {
  readonly placed: PlaceOrderDto[] = [];

  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ description: 'Places an order once the user confirms it' })
  async placeOrder(input: PlaceOrderDto) {
    const answer = await this.elicitation.elicit(`Order ${input.quantity} x ${input.item}?`, (s) =>
      s.boolean('confirm'),
    );
    if (answer.action !== 'accept' || !answer.content.confirm) return 'Order cancelled';
    this.placed.push({ item: input.item, quantity: input.quantity });
    return { orderId: `order-${this.placed.length}`, item: input.item, quantity: input.quantity };
  }
}
