import { Module, type DynamicModule } from "@nestjs/common";
import type { GoogleGenAI } from "@google/genai" with { "resolution-mode": "import" };
import { ToolnexusModule } from "toolnexus/nestjs";
import { BearerAuthGuard } from "./auth.guard";
import { CatalogModule } from "./catalog.module";
import { ChatController, GEMINI } from "./chat.controller";
import { OrdersModule } from "./orders.module";

@Module({})
export class AppModule {
  /** The app with a ready Gemini client (pointed at the local mock in main.ts). */
  static register(gemini: GoogleGenAI): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // Finds the @Tool methods of every provider; names get their module's prefix:
        // catalog_search_products, orders_place_order.
        ToolnexusModule.forRoot({ prefix: true }),
        CatalogModule,
        OrdersModule,
      ],
      controllers: [ChatController],
      providers: [BearerAuthGuard, { provide: GEMINI, useValue: gemini }],
    };
  }
}
