import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConsumerProject } from "./consumers/consumer-project";
import { lockedVersion, packInto } from "./consumers/package-under-test";
import { patience } from "../support/time";

/**
 * A consumer project written for standard (TC39) decorators, the default of TypeScript 5+ and 7
 * and of esbuild without `experimentalDecorators`: the packed package installed beside
 * TypeScript 7 and tsx, its services built by `tsc` and run by Node, and run straight from
 * source by tsx; the parameters of a method without `input` described by the manifest
 * `toolnexus generate` writes for it.
 */

const TYPESCRIPT_7 = "7.0.2";

const weatherService = `import { z } from "zod";
import { Tool, type ToolContext } from "toolnexus";

const WeatherInput = z.object({
  city: z.string().min(1).describe("City name"),
  units: z.enum(["celsius", "fahrenheit"]).default("celsius"),
});

export class WeatherService {
  @Tool({ name: "get_weather", description: "Current weather for a city", input: WeatherInput })
  getWeather({ city, units }: z.output<typeof WeatherInput>, ctx: ToolContext) {
    return \`31 degrees \${units} in \${city} for \${String(ctx.state?.user)}\`;
  }

  @Tool("The time of day")
  now() {
    return "noon";
  }
}
`;

/** Plain parameters, described only by the manifest; the ToolContext-typed one receives the ctx. */
const notesService = `import { Tool, type ToolContext } from "toolnexus";

export class NotesService {
  /** Adds a note. */
  @Tool("Adds a note")
  addNote(text: string, pinned: boolean = false, ctx?: ToolContext) {
    return \`\${pinned ? "pinned" : "noted"}: \${text} (call \${String(ctx?.callId)})\`;
  }
}
`;

const main = `import { Toolkit } from "toolnexus";
import { WeatherService } from "./weather.service.js";
import { NotesService } from "./notes.service.js";

const toolkit = new Toolkit([new WeatherService(), new NotesService()]);
const [declaration] = toolkit.toGemini();
console.log(JSON.stringify(declaration!.functionDeclarations!.map((d) => d.name)));
console.log(JSON.stringify(toolkit.get("addNote")!.inputSchema));
console.log((await toolkit.execute("get_weather", { city: "Lagos" }, { state: { user: "ada" } })).output);
console.log((await toolkit.execute("addNote", { text: "milk" }, { callId: "c1" })).output);
const refused = await toolkit.execute("get_weather", { city: "" });
console.log(refused.isError, refused.metadata?.error);
`;

/** A method with parameters, no input and no manifest entry: the scan says which mode compiled it. */
const unscannable = `import { Tool, Toolkit } from "toolnexus";

class Orders {
  @Tool("Places an order")
  place(sku: string) {
    return sku;
  }
}

new Toolkit([new Orders()], { manifest: false });
`;

const EXPECTED_OUTPUT = [
  '["get_weather","now","addNote"]',
  JSON.stringify({
    type: "object",
    properties: { text: { type: "string" }, pinned: { type: "boolean", default: false } },
    required: ["text"],
    additionalProperties: false,
  }),
  "31 degrees celsius in Lagos for ada",
  "noted: milk (call c1)",
  "true invalid_arguments",
].join("\n");

let project: ConsumerProject;
const temporary: string[] = [];

beforeAll(async () => {
  const packed = mkdtempSync(join(tmpdir(), "toolnexus-pack-"));
  const directory = mkdtempSync(join(tmpdir(), "toolnexus-standard-decorators-"));
  temporary.push(packed, directory);
  const tarball = await packInto(packed);
  project = new ConsumerProject(directory).write({
    "package.json": {
      name: "standard-decorators-consumer",
      private: true,
      type: "module",
      dependencies: {
        toolnexus: `file:${tarball}`,
        zod: lockedVersion("zod"),
        typescript: TYPESCRIPT_7,
        "typescript-json-schema": lockedVersion("typescript-json-schema"),
        tsx: "^4.20.0",
        "@types/node": lockedVersion("@types/node"),
      },
    },
    // TypeScript's defaults for decorators: standard ones (no experimentalDecorators, no metadata).
    "tsconfig.json": {
      compilerOptions: {
        target: "es2022",
        module: "nodenext",
        strict: true,
        skipLibCheck: true,
        types: ["node"],
        rootDir: "src",
        outDir: "build",
      },
      include: ["src"],
    },
    "src/weather.service.ts": weatherService,
    "src/notes.service.ts": notesService,
    "src/main.ts": main,
    "src/unscannable.ts": unscannable,
  });
  await project.install();
  // The manifest for NotesService's parameters, written next to the sources and copied beside the build.
  await project.succeed("npx", ["--no", "toolnexus", "generate", "--out", "src/toolnexus.manifest.json"]);
  await project.build();
  await project.succeed("cp", ["src/toolnexus.manifest.json", "build/toolnexus.manifest.json"]);
}, patience(600_000));

afterAll(() => {
  for (const directory of temporary) rmSync(directory, { recursive: true, force: true });
});

describe("a project compiled with standard decorators", () => {
  it("builds with TypeScript 7 and runs on Node: input tools, manifest-described parameters, the ctx", async () => {
    expect((await project.node(["build/main.js"])).trim()).toBe(EXPECTED_OUTPUT);
  });

  it("runs straight from source under tsx (esbuild's standard decorators)", async () => {
    expect((await project.succeed("npx", ["--no", "tsx", "src/main.ts"])).trim()).toBe(EXPECTED_OUTPUT);
  });

  it("a method with parameters and neither input nor a manifest entry fails, naming the mode and the ways forward", async () => {
    const { code, stderr } = await project.run("npx", ["--no", "tsx", "src/unscannable.ts"]);
    expect(code).not.toBe(0);
    expect(stderr).toContain("Orders.place: this class is compiled with standard (TC39) decorators");
    expect(stderr).toContain("@Tool({ input })");
    expect(stderr).toContain('"experimentalDecorators": true and "emitDecoratorMetadata": true');
  });
});
