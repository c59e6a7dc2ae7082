/**
 * Build-time generation: `toolnexus generate` on a synthetic project of 202 tools in 51 files
 * (services with interfaces, literal unions, enums, arrays, Dates, optional and defaulted
 * parameters, JSDoc, class-validator DTOs, and an assistant service on the big SDK typings of
 * @google/genai and openai), against `tsc --noEmit` on the same project: the floor, since
 * generation type-checks the project with one compiler program before it reads the tools.
 * Target: at most 2× that floor.
 *
 * Both run in this process (the command as `runGenerate`, writing the manifest; tsc as the
 * compiler API calls `tsc --noEmit` makes), interleaved round by round, a fresh program each
 * time; the figure is the median over rounds. When the package is built, the same comparison
 * is also made cold, as child processes (`node dist/cjs/cli/main.js generate` against
 * `node typescript/bin/tsc --noEmit`), which adds Node's and TypeScript's start-up to both.
 *
 * `generate --watch`: the rewrite after a one-file change (a tool's default edited: that file's
 * entries are regenerated, the others reused), from TypeScript making the new program to the
 * manifest's text, against a full in-process run. TypeScript's 250 ms wait for more changes is
 * not counted. Target: at most a quarter of a full run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as ts from "typescript";
import { runGenerate } from "../../src/cli/commands/generate";
import { watchManifest, type WatchRun } from "../../src/generate";
import { median, row } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const SUITE = "generate";
const FILES = 50;
const TOOLS_PER_FILE = 4;
/** The assistant service's tools (on the SDKs' types). */
const SDK_TOOLS = 2;
const ROOT = resolve(__dirname, "..", "..");
const TARGET = { text: "at most 2× tsc --noEmit", maxRatio: 2 };
const WATCH_TARGET = { text: "at most 0.25× a full run", maxRatio: 0.25 };

export const run: BenchSuite = async ({ quick }) => {
  const dir = syntheticProject();
  try {
    const rows: BenchRow[] = [];
    const rounds = quick ? 3 : 7;
    const project = join(dir, "tsconfig.json");
    const silent = { write: () => true };
    const generateOnce = async () => {
      const code = await runGenerate({ project, quiet: true }, { stdout: silent, stderr: silent, cwd: dir });
      if (code !== 0) throw new Error(`toolnexus generate exited with ${code} on the synthetic project`);
    };
    // Warm both paths once (JIT, module loading), and check the project is what it claims.
    tscNoEmit(project);
    await generateOnce();
    const manifest = JSON.parse(readFileSync(join(dir, "toolnexus.manifest.json"), "utf8")) as {
      tools: Record<string, unknown>;
    };
    const tools = Object.keys(manifest.tools).length;
    if (tools !== FILES * TOOLS_PER_FILE + SDK_TOOLS)
      throw new Error(
        `the synthetic project should have ${FILES * TOOLS_PER_FILE + SDK_TOOLS} tools; generate found ${tools}`,
      );

    const generateMs: number[] = [];
    const tscMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always runs on a warmer heap.
      const order = round % 2 === 0 ? ["tsc", "generate"] : ["generate", "tsc"];
      for (const which of order) {
        const started = performance.now();
        if (which === "tsc") tscNoEmit(project);
        else await generateOnce();
        (which === "tsc" ? tscMs : generateMs).push(performance.now() - started);
      }
    }
    rows.push(
      row(
        {
          suite: SUITE,
          case: `toolnexus generate, ${tools} tools in ${FILES + 1} files, @google/genai + openai (in-process)`,
          value: median(generateMs),
          baseline: "tsc --noEmit, same project (in-process)",
          baselineValue: median(tscMs),
          unit: "ms",
        },
        TARGET,
      ),
    );

    rows.push(
      row(
        {
          suite: SUITE,
          case: "generate --watch, rewrite after a one-file change",
          value: await watchRewrites(dir, rounds),
          baseline: "toolnexus generate, full run (in-process)",
          baselineValue: median(generateMs),
          unit: "ms",
        },
        WATCH_TARGET,
      ),
    );

    const bin = join(ROOT, "dist", "cjs", "cli", "main.js");
    if (existsSync(bin)) {
      const coldRounds = quick ? 1 : 3;
      const coldGenerate: number[] = [];
      const coldTsc: number[] = [];
      for (let round = 0; round < coldRounds; round++) {
        coldTsc.push(timeProcess([require.resolve("typescript/bin/tsc"), "--noEmit", "-p", project], dir));
        coldGenerate.push(timeProcess([bin, "generate", "--quiet", "-p", project], dir));
      }
      rows.push(
        row(
          {
            suite: SUITE,
            case: `toolnexus generate, ${tools} tools in ${FILES + 1} files, @google/genai + openai (cold process)`,
            value: median(coldGenerate),
            baseline: "tsc --noEmit, same project (cold process)",
            baselineValue: median(coldTsc),
            unit: "ms",
          },
          TARGET,
        ),
      );
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/**
 * Median time of a watch's rewrite after one service file changes (its tool's default flips
 * each round, so every rewrite changes the manifest): from TypeScript making the program to the
 * manifest's text, as the run reports it.
 */
async function watchRewrites(dir: string, rounds: number): Promise<number> {
  const runs: WatchRun[] = [];
  const watcher = watchManifest({ cwd: dir, onRun: (run) => void runs.push(run) });
  const nextRun = async (): Promise<WatchRun> => {
    const deadline = Date.now() + 60_000;
    while (runs.length === 0) {
      if (Date.now() > deadline)
        throw new Error("generate --watch did not rewrite the manifest within 60 s of a change");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return runs.shift()!;
  };
  const timings: number[] = [];
  try {
    await nextRun();
    const file = join(dir, "src", "service7.ts");
    const original = readFileSync(file, "utf8");
    for (let round = 0; round < rounds + 1; round++) {
      writeFileSync(file, original.replace("page = 1", `page = ${round + 2}`));
      const run = await nextRun();
      if ("error" in run) throw run.error;
      const regenerated = run.result.stats.tools - run.result.stats.reused;
      if (regenerated !== TOOLS_PER_FILE)
        throw new Error(`a change to one file should regenerate its ${TOOLS_PER_FILE} entries; ${regenerated} were`);
      // The first rewrite warms the watch's own code paths.
      if (round > 0) timings.push(run.result.stats.timings.total);
    }
  } finally {
    watcher.close();
  }
  return median(timings);
}

/** What `tsc --noEmit -p <project>` does: parse the config, build the program, collect every diagnostic. */
function tscNoEmit(project: string): void {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    project,
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (parsed === undefined) throw new Error(`cannot read ${project}`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
  });
  const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0)
    throw new Error(
      `the synthetic project does not type-check: ${ts.flattenDiagnosticMessageText(errors[0]!.messageText, "\n")}`,
    );
}

function timeProcess(args: string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  const elapsed = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${args.join(" ")} exited with ${result.status}: ${result.stderr || result.stdout}`);
  return elapsed;
}

/**
 * 50 files of 4 tools each, a shared types file, an assistant service on @google/genai and
 * openai, and "toolnexus" as its declarations (as a user's project sees the package).
 */
export function syntheticProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-bench-generate-"));
  // Real packages (class-validator, @types/node) resolve from the repository's node_modules.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  mkdirSync(join(dir, "src"));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022"],
          module: "commonjs",
          strict: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          esModuleInterop: true,
          skipLibCheck: true,
          types: ["node"],
          baseUrl: ".",
          paths: { toolnexus: ["./toolnexus.d.ts"] },
        },
        include: ["src"],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(dir, "toolnexus.d.ts"),
    `export interface ToolContext { callId?: string; provider?: string; state?: Record<string, unknown> }
export declare function Tool(descriptionOrOptions?: string | { name?: string; description?: string; timeout?: number }): MethodDecorator;
export declare function Param(nameOrOptions?: string | Record<string, unknown>, options?: Record<string, unknown>): ParameterDecorator;
export declare function Ctx(): ParameterDecorator;
export declare function Args(type?: Function): ParameterDecorator;
`,
  );
  writeFileSync(
    join(dir, "src", "shared.ts"),
    `/** A postal address. */
export interface Address {
  /** Street and number. */
  street: string;
  city: string;
  /** ISO 3166 country code. */
  country: "IN" | "US" | "DE" | "FR" | "JP";
  geo?: { lat: number; lon: number };
}

/** An amount of money. */
export type Money = { amount: number; currency: "EUR" | "USD" | "INR" };

export enum Status {
  Draft = "draft",
  Active = "active",
  Archived = "archived",
}
`,
  );
  writeFileSync(
    join(dir, "src", "assistant.ts"),
    `import { FunctionCallingConfigMode, GoogleGenAI, type Content } from "@google/genai";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { Tool } from "toolnexus";

export class AssistantService {
  private readonly gemini = new GoogleGenAI({ apiKey: "unused" });
  private readonly openai = new OpenAI({ apiKey: "unused" });

  /**
   * Asks Gemini.
   * @param mode How the model may call functions.
   */
  @Tool()
  async askGemini(prompt: string, mode: FunctionCallingConfigMode = FunctionCallingConfigMode.AUTO) {
    const contents: Content[] = [{ role: "user", parts: [{ text: prompt }] }];
    const response = await this.gemini.models.generateContent({ model: "gemini-2.5-flash", contents, config: { toolConfig: { functionCallingConfig: { mode } } } });
    return response.text;
  }

  /** Asks OpenAI. */
  @Tool()
  async askOpenAI(prompt: string, temperature = 0.2) {
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: prompt }];
    const completion = await this.openai.chat.completions.create({ model: "gpt-4.1-mini", messages, temperature });
    return completion.choices[0]?.message.content;
  }
}
`,
  );
  for (let i = 0; i < FILES; i++) {
    writeFileSync(
      join(dir, "src", `service${i}.ts`),
      `import { IsInt, IsOptional, IsString, Max, Min } from "class-validator";
import { Args, Ctx, Param, Tool, type ToolContext } from "toolnexus";
import { Status, type Address, type Money } from "./shared";

/** Input of create_${i}. */
export class Create${i}Input {
  /** Display name. */
  @IsString()
  name!: string;

  /** How many, 1 to 100. */
  @IsInt()
  @Min(1)
  @Max(100)
  quantity!: number;

  /** Free text. */
  @IsOptional()
  @IsString()
  note?: string;
}

/** What list${i} matches. */
export interface Filter${i} {
  /** Text to match. */
  query: string;
  status?: Status[];
  /** Created after. */
  since?: Date;
  price?: { min?: Money; max?: Money };
}

export class Service${i} {
  /**
   * Lists records of kind ${i}.
   * @param filter What to match.
   * @param page Page number, from 1.
   */
  @Tool()
  list${i}(filter: Filter${i}, page = 1, sort: "name" | "created" | "price" = "name") {
    return { filter, page, sort };
  }

  /** Creates a record of kind ${i}. */
  @Tool({ name: "create_${i}" })
  create${i}(@Args() input: Create${i}Input) {
    return input.name;
  }

  /**
   * Ships a record to an address.
   * @param to Where to.
   */
  @Tool()
  ship${i}(id: string, to: Address, express?: boolean, @Ctx() ctx?: ToolContext) {
    return \`\${id} to \${to.city} \${express ? "express" : ""} \${ctx?.callId ?? ""}\`;
  }

  /** Tags a record. */
  @Tool()
  tag${i}(id: string, @Param("labels", { maxItems: 5 }) tags: string[], status: Status | null) {
    return { id, tags, status: status ?? Status.Draft };
  }
}
`,
    );
  }
  return dir;
}
