/**
 * The module formats users write, each decided by extension and the nearest package.json
 * "type" (as Node and TypeScript's NodeNext decide them), loaded by the built CLI from a user's
 * project. Decorated tools are scanned and their schemas checked: the parameter types come
 * from `design:paramtypes` alone, so they prove the decorator metadata survived each mode.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertBuilt, runCli } from "./run-cli";
import { removeUserProjects, userProject } from "./user-project";

interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, { type?: string; enum?: unknown[] }>; required?: string[] };
}

beforeAll(assertBuilt);
afterAll(removeUserProjects);

async function listed(cwd: string, module: string): Promise<ListedTool[]> {
  const run = await runCli(["list", module, "--json"], { cwd });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(run.stdout) as ListedTool[];
}

/** Each parameter's JSON Schema type, by name. */
function parameterTypes(tools: ListedTool[], name: string): Record<string, string | undefined> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined)
    throw new Error(`no tool "${name}" among ${tools.map((candidate) => candidate.name).join(", ")}`);
  return Object.fromEntries(
    Object.entries(tool.inputSchema.properties ?? {}).map(([parameter, schema]) => [parameter, schema.type]),
  );
}

const TRIP_PLANNER = { city: "string", days: "number", withKids: "boolean", pace: "string" };

/** A .tsx file with JSX (the pragma names its factory) and a decorated class. */
const BADGE_TSX = `/** @jsx h */
import { Tool } from "toolnexus";

const h = (tag: string, _props: unknown, ...children: unknown[]) => \`<\${tag}>\${children.join("")}</\${tag}>\`;

export class Badge {
  @Tool("Renders a badge")
  render(label: string, count: number) {
    return <b>{label}: {count}</b>;
  }
}
`;

describe('a CommonJS package (no "type", or "type": "commonjs")', () => {
  const project = userProject("nodenext-cjs");

  it(".ts written for NodeNext (imports name ./x.js for x.ts) is compiled to CommonJS with its metadata", async () => {
    const tools = await listed(project, "tools.ts");
    expect(parameterTypes(tools, "plan")).toEqual(TRIP_PLANNER);
    expect(tools[0]!.inputSchema.properties!.pace!.enum).toEqual(["relaxed", "packed"]);
    const run = await runCli(["call", "tools.ts", "plan", '{"city":"Pune","days":3,"withKids":true,"pace":"packed"}'], {
      cwd: project,
    });
    expect(run).toEqual({ code: 0, stdout: '{"city":"Pune (with kids)","days":3,"pace":"packed"}\n', stderr: "" });
  });

  it(".mts is an ES module: top-level await, and named imports of CommonJS TypeScript", async () => {
    const tools = await listed(project, "converter.mts");
    expect(parameterTypes(tools, "convert")).toEqual({ amount: "number", currency: "string", round: "boolean" });
    expect(tools[0]).toMatchObject({ description: "Converts dollars; the pace of a trip is relaxed by default" });
    expect(
      await runCli(["call", "converter.mts", "convert", '{"amount":10,"currency":"INR","round":true}'], {
        cwd: project,
      }),
    ).toEqual({ code: 0, stdout: "830\n", stderr: "" });
  });

  it(".mjs with top-level await", async () => {
    expect(await runCli(["call", "greeting.mjs", "greet", '{"name":"Ada"}'], { cwd: project })).toEqual({
      code: 0,
      stdout: "Hello, Ada!\n",
      stderr: "",
    });
  });

  it(".tsx with JSX is compiled to CommonJS with its metadata", async () => {
    writeFileSync(join(project, "badge.tsx"), BADGE_TSX);
    expect(parameterTypes(await listed(project, "badge.tsx"), "render")).toEqual({ label: "string", count: "number" });
    expect(await runCli(["call", "badge.tsx", "render", '{"label":"stars","count":5}'], { cwd: project })).toEqual({
      code: 0,
      stdout: "<b>stars: 5</b>\n",
      stderr: "",
    });
  });

  it("ordinary CommonJS JavaScript next to them", async () => {
    writeFileSync(
      join(project, "plain.js"),
      'const { TripPlanner } = require("./tools.ts");\nmodule.exports = { planner: new TripPlanner() };\n',
    );
    expect(parameterTypes(await listed(project, "plain.js"), "plan")).toEqual(TRIP_PLANNER);
  });
});

describe('an ES-module package ("type": "module")', () => {
  const project = userProject("esm-package");

  it(".ts is an ES module: NodeNext .js specifiers, top-level await, a .cts imported by name, metadata intact", async () => {
    const tools = await listed(project, "trips.ts");
    expect(tools.map((tool) => tool.name)).toEqual(["now", "plan"]);
    expect(parameterTypes(tools, "plan")).toEqual(TRIP_PLANNER);
    expect(parameterTypes(tools, "now")).toEqual({ zone: "string", hour24: "boolean" });
    expect(await runCli(["call", "trips.ts", "now", '{"zone":"IST","hour24":true}'], { cwd: project })).toEqual({
      code: 0,
      stdout: "12:00 (24h) IST\n",
      stderr: "",
    });
  });

  it(".cts is CommonJS whatever the package says", async () => {
    expect(parameterTypes(await listed(project, "clock.cts"), "now")).toEqual({ zone: "string", hour24: "boolean" });
  });

  it("a CommonJS TypeScript file imported and required is one module (one class, one metadata)", async () => {
    writeFileSync(
      join(project, "both.ts"),
      [
        'import { createRequire } from "node:module";',
        'import { defineTool } from "toolnexus";',
        'import { Clock } from "./clock.cjs";',
        'const required = createRequire(import.meta.url)("./clock.cts") as { Clock: unknown };',
        'export const same = defineTool({ name: "same", description: "Whether import and require give one class", execute: () => String(required.Clock === Clock) });',
        "",
      ].join("\n"),
    );
    expect(await runCli(["call", "both.ts", "same"], { cwd: project })).toEqual({
      code: 0,
      stdout: "true\n",
      stderr: "",
    });
  });

  it(".tsx with JSX is compiled to an ES module with its metadata", async () => {
    writeFileSync(join(project, "badge.tsx"), BADGE_TSX);
    expect(parameterTypes(await listed(project, "badge.tsx"), "render")).toEqual({ label: "string", count: "number" });
  });

  it(".js with top-level await", async () => {
    expect(await runCli(["call", "awaited-tools.js", "greet", '{"name":"Ada"}'], { cwd: project })).toEqual({
      code: 0,
      stdout: "Hello, Ada!\n",
      stderr: "",
    });
  });
});
