/**
 * An MCP server's tools beside local ones, in one toolkit. The "inventory" MCP server (a
 * toolkit served with `createMcpServer`, over the SDK's in-memory transport, so this runs
 * offline) has four tools; `fromMcp` makes its tools toolnexus Tools under the prefix
 * `inventory_`, leaving out the one it hints is destructive. With a local currency converter,
 * whose arguments are a zod schema (any Standard Schema works as `inputSchema`), they form one
 * toolkit, declared for OpenAI and Gemini like any other.
 *
 * A model turn written out below (an OpenAI ChatCompletion, no API key) calls a remote tool,
 * the local one, and a remote tool with a product the server does not know: `runOpenAI`
 * answers all three in order, the server's failure as text the model can act on. Then a
 * Gemini turn asks for a product photo: the server's image comes back as an image part, which
 * Gemini's function response carries.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ChatCompletion } from "openai/resources/chat/completions";
import { defineTool, image, Toolkit, type JSONSchemaObject, type Tool } from "toolnexus";
import { createMcpServer, fromMcp } from "toolnexus/mcp";
import { z } from "zod";
import { Canvas } from "./support/png";

// ---- The MCP server (in a real deployment: another process, another team) ----------------

const STOCK: Record<string, { name: string; units: number; priceEur: number }> = {
  "SKU-1": { name: "Espresso cup", units: 42, priceEur: 9.5 },
  "SKU-2": { name: "Moka pot", units: 0, priceEur: 34 },
};

function productOf(sku: unknown) {
  const product = STOCK[String(sku)];
  if (product === undefined)
    throw new Error(`No product ${String(sku)}. Known SKUs: ${Object.keys(STOCK).join(", ")}.`);
  return product;
}

const skuSchema: JSONSchemaObject = {
  type: "object",
  properties: { sku: { type: "string", description: "The product's SKU, e.g. SKU-1" } },
  required: ["sku"],
};

const inventoryTools = [
  defineTool({
    name: "stock_level",
    description: "How many units of a product are in stock, and its price",
    inputSchema: skuSchema,
    outputSchema: {
      type: "object",
      properties: { sku: { type: "string" }, units: { type: "integer" }, priceEur: { type: "number" } },
      required: ["sku", "units", "priceEur"],
    },
    annotations: { readOnly: true },
    execute: ({ sku }) => {
      const { units, priceEur } = productOf(sku);
      return { sku, units, priceEur };
    },
  }),
  defineTool({
    name: "product_photo",
    description: "A photo of a product (PNG)",
    inputSchema: skuSchema,
    annotations: { readOnly: true },
    execute: ({ sku }) => {
      const { name } = productOf(sku);
      const canvas = new Canvas(16, 16);
      canvas.fillRect(4, 6, 8, 8, [120, 72, 40]);
      return [{ type: "text", text: `${name} (${String(sku)})` }, image(canvas.toPng())];
    },
  }),
  defineTool({
    name: "delete_product",
    description: "Deletes a product from the catalogue",
    inputSchema: skuSchema,
    annotations: { destructive: true },
    execute: ({ sku }) => `deleted ${String(sku)}`,
  }),
];

/** The inventory MCP server, connected in process to an official SDK client. */
async function connectToInventory(): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createMcpServer(new Toolkit(inventoryTools), { name: "inventory" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "from-mcp-example", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

// ---- The application: local tools and the server's, one toolkit ---------------------------

const RATES = { USD: 1.08, GBP: 0.85 };

// A local tool with a zod schema (any Standard Schema): its JSON Schema is zod's, calls are checked by zod.
const convertCurrency = defineTool({
  name: "convert_currency",
  description: "Converts an amount in euros to another currency",
  inputSchema: z.object({ eur: z.number().positive(), to: z.enum(["USD", "GBP"]) }),
  execute: ({ eur, to }) => `${(eur * RATES[to]).toFixed(2)} ${to}`,
});

/** What the model answered: a ChatCompletion with three tool calls, as the OpenAI API returns it. */
function modelTurn(): ChatCompletion {
  const call = (id: string, name: string, args: object) => ({
    id,
    type: "function" as const,
    function: { name, arguments: JSON.stringify(args) },
  });
  return {
    id: "chatcmpl-local-1",
    object: "chat.completion",
    created: 0,
    model: "gpt-4.1-mini",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        logprobs: null,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            call("call_1", "inventory_stock_level", { sku: "SKU-1" }),
            call("call_2", "convert_currency", { eur: 9.5, to: "USD" }),
            call("call_3", "inventory_stock_level", { sku: "SKU-9" }),
          ],
        },
      },
    ],
  };
}

export async function main() {
  const inventory = await connectToInventory();
  try {
    // The server's tools as toolnexus Tools: prefixed, and without the one it hints is destructive.
    const remote: Tool[] = await fromMcp(inventory.client, {
      namePrefix: "inventory_",
      exclude: (tool) => tool.annotations?.destructiveHint === true,
    });
    const toolkit = new Toolkit([convertCurrency, ...remote]);

    const declared = {
      openai: toolkit
        .toOpenAI({ strict: true })
        .map((tool) => (tool.type === "function" ? tool.function.name : tool.custom.name)),
      gemini: toolkit.toGemini()[0]!.functionDeclarations.map((declaration) => declaration.name),
    };
    const openaiReply = await toolkit.runOpenAI(modelTurn());
    const geminiReply = await toolkit.runGemini({
      parts: [{ functionCall: { id: "photo_1", name: "inventory_product_photo", args: { sku: "SKU-2" } } }],
    });
    return { declared, openaiReply, geminiReply };
  } finally {
    await inventory.close();
  }
}

/** Prints what the example built: the declared names, the OpenAI tool messages, the Gemini function response (long strings shortened). */
export function printResult({ declared, openaiReply, geminiReply }: Awaited<ReturnType<typeof main>>): void {
  console.log("declared for OpenAI:", declared.openai.join(", "));
  console.log("declared for Gemini:", declared.gemini.join(", "));
  console.log("OpenAI tool messages:", JSON.stringify(openaiReply, null, 2));
  console.log(
    "Gemini function response:",
    JSON.stringify(
      geminiReply,
      (_key, value: unknown) =>
        typeof value === "string" && value.length > 80 ? `<${value.length} characters>` : value,
      2,
    ),
  );
}

if (require.main === module) {
  main().then(printResult, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
