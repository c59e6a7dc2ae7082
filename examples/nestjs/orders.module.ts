/** Orders: a tool that uses another module's exported service and the authenticated user. */
import { Injectable, Module, UseGuards } from "@nestjs/common";
import { Ctx, Tool, type ToolContext } from "toolnexus";
import { ToolParam } from "toolnexus/nestjs";
import { CatalogModule, CatalogService } from "./catalog.module";
import { CustomersOnlyGuard, type User } from "./auth.guard";

export interface Order {
  orderId: number;
  customer: string;
  sku: string;
  name: string;
  quantity: number;
  total: number;
}

@Injectable()
export class OrdersService {
  readonly orders: Order[] = [];

  constructor(private readonly catalog: CatalogService) {}

  // Nest's own guard, on the tool: a viewer's call is refused before the method runs.
  @Tool({ name: "place_order", description: "Place an order for the signed-in customer" })
  @UseGuards(CustomersOnlyGuard)
  placeOrder(
    @ToolParam({ description: "The product's SKU, from search_products" }) sku: string,
    @ToolParam({ description: "How many packs", integer: true, minimum: 1, maximum: 20 }) quantity: number,
    @Ctx() ctx: ToolContext,
  ): Order {
    // Host data, never shown to the model: the user the global guard authenticated.
    const user = ctx.state?.user as User | undefined;
    if (user === undefined) throw new Error("Nobody is signed in.");
    const product = this.catalog.find(sku);
    const order = {
      orderId: 1000 + this.orders.length + 1,
      customer: user.name,
      sku,
      name: product.name,
      quantity,
      total: product.price * quantity,
    };
    this.orders.push(order);
    return order;
  }
}

@Module({ imports: [CatalogModule], providers: [OrdersService] })
export class OrdersModule {}
