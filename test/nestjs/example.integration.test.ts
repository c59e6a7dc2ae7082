import "../support/share-undici-dispatcher";
import { main } from "../../examples/nestjs/main";
import { RecordingLogger } from "./fixtures";

// examples/nestjs: a Nest app on Fastify with two modules, a controller running a Gemini
// conversation (official @google/genai client) against the local mock, and the MCP endpoint
// behind the app's global guard, held to what it claims.
describe("examples/nestjs", () => {
  it("discovers the tools of both modules and runs the conversation as the authenticated user", async () => {
    const logger = new RecordingLogger();
    const { status, reply, modelRequests, mcp } = await main({ logger });

    expect(status).toBe(201);
    expect(reply.calls).toEqual([
      { name: "catalog_search_products", args: { query: "assam" }, isError: false },
      { name: "orders_place_order", args: { sku: "TEA-01", quantity: 2 }, isError: false },
    ]);
    // The order was placed for the user the guard authenticated (passed through ctx.state).
    expect(reply.answer).toBe("Order 1001 is placed for Ada: 2 × Assam tea, 24 EUR in total.");
    expect(reply.turns).toBe(3);
    expect(modelRequests).toBe(3);

    // A viewer's MCP client sees both tools and may search; the order tool's own guard refuses it.
    expect(mcp.tools).toEqual(["catalog_search_products", "orders_place_order"]);
    expect(JSON.parse(mcp.search)).toEqual([{ sku: "TEA-02", name: "Darjeeling tea", price: 18 }]);
    expect(mcp.order).toEqual({
      isError: true,
      text: 'The call to tool "orders_place_order" is not allowed for this user. Do not retry it; tell the user.',
    });

    // The global logging interceptor saw the HTTP requests and each tool call that ran.
    const calls = logger.lines.filter((line) => line.context === "Calls").map((line) => line.message);
    expect(calls).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tool catalog_search_products\(\{"query":"assam"\}\) answered in /),
        expect.stringMatching(/^tool orders_place_order\(\{"sku":"TEA-01","quantity":2\}\) answered in /),
        expect.stringMatching(/^POST \/api\/chat answered in /),
        expect.stringMatching(/^POST \/api\/mcp answered in /),
      ]),
    );
    expect(calls.filter((line) => line.startsWith("tool orders_place_order"))).toHaveLength(1);

    expect(logger.toolnexus("log")).toEqual(
      expect.arrayContaining([
        'Tool "catalog_search_products" → CatalogService.search (CatalogModule)',
        'Tool "orders_place_order" → OrdersService.placeOrder (OrdersModule)',
      ]),
    );
  });
});
