/** `npm start`: runs every example in turn and prints what it builds. */
import * as oneTool from "./gemini-one-tool";
import * as requestBody from "./gemini-request-body";
import * as roundTrip from "./gemini-round-trip";
import * as services from "./services";
import * as agentLoop from "./agent-loop";

async function run() {
  const examples: Array<[string, { main: () => unknown }]> = [
    ["1. One tool and its Gemini wrapper", oneTool],
    ["2. Three tools, one wrapper, a generateContent body", requestBody],
    ["3. A functionCall part, run and answered", roundTrip],
    ["4. Decorated services, every provider, a Gemini round trip", services],
    ["5. The agent loop with the openai client (against a local mock)", { main: printAgentLoop }],
  ];
  for (const [title, example] of examples) {
    console.log(`\n=== ${title} ===`);
    await example.main();
  }
}

async function printAgentLoop() {
  agentLoop.printConversation(await agentLoop.main());
}

void run();
