/**
 * The official MCP conformance suite's server scenarios against `serveMcp` over streamable
 * HTTP, serving the scenarios' tools (conformance/scenario-tools.ts). Every scenario of a
 * feature toolnexus serves passes; each other one names the feature it waits for, and fails
 * until that feature is served (then it moves to the served list). A scenario passes as the
 * suite decides it (no failed check); its warnings are listed here. A scenario the suite adds
 * fails the test until it is placed in one of the two lists.
 */
import { Toolkit } from "toolnexus";
import { serveMcp, type McpServerHandle } from "toolnexus/mcp";
import {
  RELEASE_2025,
  runServerScenarios,
  specifyPlacement,
  type ConformanceRun,
} from "./conformance/conformance-suite";
import { ScenarioLibrary } from "./conformance/scenario-primitives";
import { askingScenarioTools, scenarioTools } from "./conformance/scenario-tools";

const SERVED = [
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-progress",
  "json-schema-2020-12",
  "server-sse-multiple-streams",
  "server-sse-polling",
  "dns-rebinding-protection",
  "tools-call-sampling",
  "tools-call-elicitation",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
  "logging-set-level",
  "tools-call-with-logging",
  "completion-complete",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
];

/**
 * The warnings of served scenarios (what the specification recommends and toolnexus does not
 * do), by scenario: any other warning fails the test. Stateless streams are not resumable: no
 * priming event with an id, no `retry` field; a client whose stream drops calls again.
 */
const WARNED: Record<string, string[]> = {
  "server-sse-polling": ["server-sse-priming-event", "server-sse-retry-field"],
};

/** Scenario → the feature toolnexus does not serve yet: none. */
const NOT_SERVED: Record<string, string> = {};

let server: McpServerHandle;
let run: ConformanceRun;

beforeAll(async () => {
  server = await serveMcp(new Toolkit([...scenarioTools, ...askingScenarioTools, new ScenarioLibrary()]), {
    transport: "http",
    port: 0,
  });
  run = await runServerScenarios(server.url!, RELEASE_2025);
}, 600_000);

afterAll(() => server?.close());

specifyPlacement(() => run, { served: SERVED, warned: WARNED, notServed: NOT_SERVED });
