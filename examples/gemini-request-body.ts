/** Reference scenario 2: three tools, still ONE wrapper, straight into a `generateContent` body. */
import { defineTool, toGemini } from "toolnexus";

const tool = (name: string, description: string) =>
  defineTool({ name, description, inputSchema: { type: "object", properties: {} }, execute: () => name });

export function main() {
  const tools = [tool("search", "Search the docs"), tool("ping", "Health check"), tool("kv_get", "Read a key")];
  const body = {
    contents: [{ role: "user", parts: [{ text: "search for adapters" }] }],
    tools: toGemini(tools),
  };
  // The key comes from the environment, never a literal in your source.
  const apiKey = process.env.GEMINI_API_KEY;
  const names = body.tools[0].functionDeclarations.map((d) => d.name);
  console.log(`wrappers: ${body.tools.length}, declarations: ${names.join(", ")}`);
  console.log(`POST https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent`);
  console.log(`x-goog-api-key: ${apiKey ? "(from GEMINI_API_KEY)" : "(set GEMINI_API_KEY to send it)"}`);
  console.log(JSON.stringify(body));
  return body;
}

if (require.main === module) main();
