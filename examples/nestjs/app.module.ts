import { Module, type DynamicModule } from "@nestjs/common";
import { APP_GUARD, APP_INTERCEPTOR } from "@nestjs/core";
import type { GoogleGenAI } from "@google/genai" with { "resolution-mode": "import" };
import { ToolnexusModule } from "toolnexus/nestjs";
import { BearerAuthGuard } from "./auth.guard";
import { CatalogModule } from "./catalog.module";
import { ChatController, GEMINI } from "./chat.controller";
import { LoggingInterceptor } from "./logging.interceptor";
import { OrdersModule } from "./orders.module";

@Module({})
export class AppModule {
  /** The app with a ready Gemini client (pointed at the local mock in main.ts). */
  static register(gemini: GoogleGenAI): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // Finds the @Tool methods of every provider; names get their module's prefix:
        // catalog_search_products, orders_place_order. Serves them over MCP at /api/mcp,
        // a controller of this app behind its global guard.
        ToolnexusModule.forRoot({ prefix: true, mcp: { path: "/mcp", name: "tea-shop" } }),
        CatalogModule,
        OrdersModule,
      ],
      controllers: [ChatController],
      providers: [
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_INTERCEPTOR, useClass: LoggingInterceptor },
        { provide: GEMINI, useValue: gemini },
      ],
    };
  }
}
