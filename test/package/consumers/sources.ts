import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-under-test";

/**
 * The consumer projects' sources: what a user of the published package writes. The same code
 * is compiled by each project's own TypeScript (5.9 or 7), for CommonJS or ES modules.
 * `ext` is the extension of relative imports: "" in CommonJS, ".js" under NodeNext ESM.
 */

export const clockSource = `import { Injectable } from "@nestjs/common";

@Injectable()
export class Clock {
  today(): string {
    return "2025-01-01";
  }
}
`;

/** Every kind of parameter the scanner reads from decorator metadata: string, number, boolean, enum, DTO. */
export const weatherServiceSource = (ext: string) => `import { Injectable } from "@nestjs/common";
import { IsInt, IsString, Min } from "class-validator";
import { Param, Tool } from "toolnexus";
import { Clock } from "./clock${ext}";

export enum Units {
  Celsius = "celsius",
  Fahrenheit = "fahrenheit",
}

export class Trip {
  @IsString() city!: string;
  @IsInt() @Min(1) days!: number;
}

@Injectable()
export class WeatherService {
  constructor(private readonly clock: Clock) {}

  /**
   * Forecast for a city.
   * @param days How many days ahead
   */
  @Tool({ description: "Forecast for a city" })
  forecast(@Param({ description: "City name" }) city: string, @Param() days: number, @Param() hourly: boolean, @Param({ enum: Units }) units: Units) {
    return { city, days, hourly, units, from: this.clock.today() };
  }

  @Tool({ description: "Plan a trip" })
  plan(@Param() trip: Trip) {
    return { isTrip: trip instanceof Trip, city: trip.city, days: trip.days };
  }
}
`;

/** A request-scoped provider: each call resolves it for the request in the call's state. */
export const visitorServiceSource = `import { Inject, Injectable, Scope } from "@nestjs/common";
import { REQUEST } from "@nestjs/core";
import { Tool } from "toolnexus";

@Injectable({ scope: Scope.REQUEST })
export class VisitorService {
  constructor(@Inject(REQUEST) private readonly request: { user?: string }) {}

  @Tool({ description: "Who is asking" })
  whoami() {
    return { user: this.request.user };
  }
}
`;

/** The module the CLI loads: decorated instances. */
export const toolsModuleSource = (ext: string) => `import { Clock } from "./clock${ext}";
import { WeatherService } from "./weather.service${ext}";

export const weather = new WeatherService(new Clock());
`;

/** The decorated service scanned outside Nest: its tools' schemas and two calls, as JSON. */
export const scanSource = (ext: string) => `import { Toolkit } from "toolnexus";
import { weather } from "./tools${ext}";

const toolkit = new Toolkit([weather]);
void Promise.all([
  toolkit.execute("forecast", { city: "Chennai", days: 3, hourly: true, units: "celsius" }),
  toolkit.execute("plan", { trip: { city: "Pune", days: 2 } }),
]).then(([forecast, plan]) => {
  console.log(JSON.stringify({ tools: toolkit.tools().map(({ name, inputSchema }) => ({ name, inputSchema })), forecast, plan }));
});
`;

/**
 * A Nest application with ToolnexusModule on the given HTTP adapter: the injected toolkit, a
 * request-scoped tool, a tool behind Nest's own guard, and the MCP endpoint under the global prefix.
 */
export const nestAppSource = (
  ext: string,
  adapter: "express" | "fastify",
) => `import { Injectable, Module, UseGuards, type CanActivate, type ExecutionContext } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
${adapter === "fastify" ? 'import { FastifyAdapter } from "@nestjs/platform-fastify";\n' : ""}import { Tool, Toolkit } from "toolnexus";
import { ToolnexusExplorer, ToolnexusModule, toolCallOf } from "toolnexus/nestjs";
import { Clock } from "./clock${ext}";
import { VisitorService } from "./visitor.service${ext}";
import { WeatherService } from "./weather.service${ext}";

const guardSaw: string[] = [];

@Injectable()
class AdminsOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const call = toolCallOf(context);
    guardSaw.push(\`\${context.getType()} \${call?.tool}\`);
    return call?.ctx.state?.user === "admin";
  }
}

@Injectable()
class VaultService {
  @Tool({ description: "Open the vault" })
  @UseGuards(AdminsOnly)
  openVault() {
    return "opened";
  }
}

@Module({ imports: [ToolnexusModule.forRoot({ mcp: { path: "/mcp" } })], providers: [Clock, WeatherService, VisitorService, VaultService] })
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, ${adapter === "fastify" ? "new FastifyAdapter(), " : ""}{ logger: false });
  app.setGlobalPrefix("api");
  await app.listen(0, "127.0.0.1");
  const toolkit = app.get(Toolkit);
  const forecast = await toolkit.execute("forecast", { city: "Chennai", days: 3, hourly: true, units: "celsius" });
  const whoami = await toolkit.execute("whoami", {}, { state: { request: { user: "ada" } } });
  const vault = { refused: await toolkit.execute("openVault", {}, { state: { user: "ada" } }), opened: await toolkit.execute("openVault", {}, { state: { user: "admin" } }), guardSaw };
  const { port } = app.getHttpServer().address() as { port: number };
  const response = await fetch(\`http://localhost:\${port}/api/mcp\`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const mcp = { status: response.status, body: await response.text() };
  const discovered = app.get(ToolnexusExplorer).discovered;
  await app.close();
  console.log(JSON.stringify({ oneToolkitClass: toolkit instanceof Toolkit, discovered, forecast, whoami, vault, mcp }));
}

void main();
`;

/**
 * Imports every entry point of package.json "exports"; none may resolve to \`any\` (an entry
 * whose types are missing fails to resolve, or would be \`any\`, and the assignment fails).
 * Then the API itself, typed: a wrong call must be an error.
 */
export const entryPointsSource = (
  entryPoints: readonly string[],
) => `import { LIMITS, Param, Tool, Toolkit, toGemini, type ToolResult } from "toolnexus";
import { createMcpServer, toMcpResult } from "toolnexus/mcp";
import { ToolnexusModule, ToolParam } from "toolnexus/nestjs";
import type { GeminiTools, McpCallToolResult, OpenAIReplyMessage } from "toolnexus/providers";
${entryPoints.map((specifier, index) => `import * as entry${index} from ${JSON.stringify(specifier)};`).join("\n")}

type IsAny<T> = 0 extends 1 & T ? true : false;
${entryPoints.map((_, index) => `export const entry${index}IsTyped: IsAny<typeof entry${index}> = false;`).join("\n")}

class Greeter {
  @Tool({ description: "Greets" })
  greet(@Param() name: string): string {
    return "hello " + name;
  }
}

export const result: Promise<ToolResult> = new Toolkit([new Greeter()]).execute("greet", { name: "Ada" });
export const nestModule: { module: Function; global?: boolean } = ToolnexusModule.forRoot({ prefix: true });
export const serverFactory: typeof createMcpServer = createMcpServer;
// The wire types, from toolnexus/providers, are what the functions of the other entries give.
export const geminiTools: GeminiTools = toGemini([]);
export const mcpResult: McpCallToolResult = toMcpResult({ output: "ok", isError: false });
export const openaiReplies: Promise<OpenAIReplyMessage[]> = new Toolkit([]).runOpenAI([]);
export const nestParam: typeof Param = ToolParam;
export const timeout: 60000 = LIMITS.DEFAULT_TIMEOUT_MS;
// @ts-expect-error LIMITS is read-only
LIMITS.MAX_ERROR_TEXT = 1;
// @ts-expect-error a toolkit takes tools, decorated instances or classes: not numbers
new Toolkit([42]);
`;

/** What only an ES module may do: the default import is the CommonJS module object, as Node gives it. */
export const esmOnlySource = `import toolnexus from "toolnexus";
import { Toolkit } from "toolnexus";

export const sameToolkit: typeof Toolkit = toolnexus.Toolkit;
`;

/** The README's Quick start: the first ```ts block after its "## Quick start" heading, as a new user copies it. */
export function quickStartSource(): string {
  const readme = readFileSync(join(packageRoot, "README.md"), "utf8");
  const block = /^## Quick start[^\n]*\n[\s\S]*?```ts\n([\s\S]*?)```/m.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no "## Quick start" heading followed by a ```ts block.');
  return block;
}
