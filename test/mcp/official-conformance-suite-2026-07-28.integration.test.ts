/**
 * The official MCP conformance suite's scenarios of revision 2026-07-28 (its first release
 * with them, a prerelease) against `serveMcp` over streamable HTTP, serving the scenarios'
 * tools, those of multi-round-trip included. As for the 2025 scenarios: every scenario of a
 * feature toolnexus serves passes, each other one names what it waits for and fails until it
 * is served, and a scenario the release lists is placed in one of the two lists.
 */
import { Toolkit } from "toolnexus";
import { serveMcp, type McpServerHandle } from "toolnexus/mcp";
import {
  RELEASE_2026,
  runServerScenarios,
  specifyPlacement,
  type ConformanceRun,
} from "./conformance/conformance-suite";
import { ScenarioLibrary } from "./conformance/scenario-primitives";
import { inputRequiredScenarioTools, scenarioTools } from "./conformance/scenario-tools";

const SERVED = [
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
  "dns-rebinding-protection",
  "http-header-validation",
  "sep-2164-resource-not-found",
  "completion-complete",
  "caching",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "input-required-result-basic-elicitation",
  "input-required-result-basic-sampling",
  "input-required-result-request-state",
  "input-required-result-multi-round",
  "input-required-result-missing-input-response",
  "input-required-result-result-type",
  "input-required-result-unsupported-methods",
  "input-required-result-tampered-state",
  "input-required-result-capability-check",
  "input-required-result-ignore-extra-params",
  "input-required-result-validate-input",
  "input-required-result-non-tool-request",
  "server-stateless",
];

/** Scenario → what toolnexus does not serve yet. */
const NOT_SERVED: Record<string, string> = {
  "http-custom-header-server-validation": "tool parameters sent as headers (x-mcp-header)",
  "input-required-result-basic-list-roots": "roots (a tool asking the client's roots)",
  "input-required-result-multiple-input-requests": "roots (a tool asking the client's roots)",
  "tasks-lifecycle": "the Tasks extension's scenario fixtures (tasks that fail with a JSON-RPC error)",
  "tasks-capability-negotiation": "the Tasks extension's scenario fixtures",
  "tasks-wire-fields": "the Tasks extension's scenario fixtures",
  "tasks-request-state-removal": "the Tasks extension's scenario fixtures",
  "tasks-mrtr-input": "tasks that ask the client while they run (input_required tasks)",
  "tasks-request-headers": "tools whose task support is required",
  "tasks-dispatch-and-envelope": "the Tasks extension's scenario fixtures",
  "tasks-status-notifications": "task status notifications (subscriptions/listen)",
  "tasks-required-task-error": "tools whose task support is required",
  "tasks-mrtr-composition": "tasks that ask the client while they run (input_required tasks)",
  "sep-2640-skills-directory": "the Skills extension",
  "sep-2640-skills-enumeration": "the Skills extension",
  "sep-2640-skills-manifest": "the Skills extension",
};

/** The warnings of served scenarios, by scenario: any other warning fails the test. */
const WARNED: Record<string, string[]> = {};

let server: McpServerHandle;
let run: ConformanceRun;

beforeAll(async () => {
  server = await serveMcp(new Toolkit([...scenarioTools, ...inputRequiredScenarioTools, new ScenarioLibrary()]), {
    transport: "http",
    port: 0,
  });
  run = await runServerScenarios(server.url!, RELEASE_2026);
}, 600_000);

afterAll(() => server?.close());

specifyPlacement(() => run, { served: SERVED, warned: WARNED, notServed: NOT_SERVED });
