import "../support/share-undici-dispatcher";
import { main } from "../../examples/nestjs/main";
import { RecordingLogger } from "./fixtures";

// examples/nestjs: a Nest app with two modules and a controller running a Gemini conversation
// (official @google/genai client) against the local mock, held to what it claims.
describe("examples/nestjs", () => {
  it("discovers the tools of both modules and runs the conversation as the authenticated user", async () => {
    const logger = new RecordingLogger();
    const { status, reply, modelRequests } = await main({ logger });

    expect(status).toBe(201);
    expect(reply.calls).toEqual([
      { name: "catalog_search_products", args: { query: "assam" }, isError: false },
      { name: "orders_place_order", args: { sku: "TEA-01", quantity: 2 }, isError: false },
    ]);
    // The order was placed for the user the guard authenticated (passed through ctx.state).
    expect(reply.answer).toBe("Order 1001 is placed for Ada: 2 × Assam tea, 24 EUR in total.");
    expect(reply.turns).toBe(3);
    expect(modelRequests).toBe(3);

    expect(logger.toolnexus("log")).toEqual(
      expect.arrayContaining(['Tool "catalog_search_products" → CatalogService.search (CatalogModule)', 'Tool "orders_place_order" → OrdersService.placeOrder (OrdersModule)']),
    );
  });
});
