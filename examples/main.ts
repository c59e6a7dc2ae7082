/** `npm start`: runs every example in turn and prints what it builds. */
import * as oneTool from "./gemini-one-tool";
import * as requestBody from "./gemini-request-body";
import * as roundTrip from "./gemini-round-trip";
import * as services from "./services";
import * as agentLoop from "./agent-loop";
import * as nest from "./nestjs/main";

async function run() {
  const examples: Array<[string, { main: () => unknown }]> = [
    ["1. One tool and its Gemini wrapper", oneTool],
    ["2. Three tools, one wrapper, a generateContent body", requestBody],
    ["3. A functionCall part, run and answered", roundTrip],
    ["4. Decorated services, every provider, a Gemini round trip", services],
    ["5. The agent loop with the openai client (against a local mock)", { main: printAgentLoop }],
    [
      "6. A NestJS app on Fastify whose services are tools: a Gemini chat (against a local mock) and MCP, behind Nest's guards",
      { main: printNestApp },
    ],
    ["7. Controlling calls: a refund waits for a person's approval, across two requests", { main: runApproval }],
    [
      "8. Results beyond text: a chart drawn as a PNG and a structured summary, for every provider and MCP",
      { main: printCharts },
    ],
    [
      "9. The Vercel AI SDK's generateText over toolkit tools, with its approval flow (its mock model)",
      { main: runAiSdk },
    ],
    [
      "10. LangChain's tool-calling loop over toolkit tools: a corrected call, a chart as an image block, a refund approve denies",
      { main: runLangChain },
    ],
    [
      "11. The OpenAI Agents SDK's runner over toolkit tools, with its approval flow (against a local Responses API mock)",
      { main: runOpenAIAgents },
    ],
    ["12. An MCP server's tools beside a local zod-typed tool, in one toolkit (fromMcp)", { main: runFromMcp }],
    [
      "13. Calls run on workers through a BullMQ queue (needs a Redis; skipped in one line without one)",
      { main: runQueue },
    ],
  ];
  for (const [title, example] of examples) {
    console.log(`\n=== ${title} ===`);
    await example.main();
  }
}

async function printAgentLoop() {
  console.log(
    "(the mock model first sends an invalid e-mail on purpose: the error goes back to it as data, and it corrects the call)",
  );
  agentLoop.printConversation(await agentLoop.main());
}

/**
 * Loaded when it runs, after the NestJS app: its @Tool class is given to a plain Toolkit, not
 * to Nest, and ToolnexusModule warns at startup about @Tool classes no module provides.
 */
function runApproval() {
  return (require("./approval") as typeof import("./approval")).main();
}

/** Loaded when it runs, after the NestJS app, as the approval example is (its @Tool class is no Nest provider). */
async function printCharts() {
  const chart = require("./chart") as typeof import("./chart");
  console.log("(base64 payloads shortened to their size)");
  const { replies, mcp } = await chart.main();
  for (const [provider, reply] of Object.entries(replies)) console.log(`${provider}: ${chart.shortened(reply)}`);
  console.log(`mcp: ${chart.shortened(mcp)}`);
}

/** Loaded when it runs, as the examples above: each gives decorated services (examples/services.ts, examples/chart.ts) to a plain Toolkit. */
function runAiSdk() {
  return (require("./ai-sdk") as typeof import("./ai-sdk")).main();
}

async function runLangChain() {
  const langchain = require("./langchain") as typeof import("./langchain");
  langchain.printConversation(await langchain.main());
}

async function runOpenAIAgents() {
  const agents = require("./openai-agents") as typeof import("./openai-agents");
  agents.printRun(await agents.main());
}

async function runFromMcp() {
  const fromMcp = require("./from-mcp") as typeof import("./from-mcp");
  fromMcp.printResult(await fromMcp.main());
}

function runQueue() {
  return (require("./queue") as typeof import("./queue")).main();
}

async function printNestApp() {
  console.log(nest.describeResult(await nest.main({ logger: ["warn", "error"] })).join("\n"));
}

void run();
